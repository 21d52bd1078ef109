/** client_id and client_secret from an `Authorization: Basic` header. */
export interface BasicCredentials {
  readonly clientId: string;
  readonly secret: string;
}

/**
 * Reads HTTP Basic client credentials (RFC 6749 §2.3.1): base64 of `id:secret`, where id and secret
 * are each form-url-encoded first. Returns undefined when the header is absent or uses another scheme,
 * and null when it is Basic but malformed.
 */
export function basicCredentials(header: string | undefined): BasicCredentials | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/=]*)\s*$/i.exec(header);
  if (match === null) return /^Basic(\s|$)/i.test(header) ? null : undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (clientId === undefined || secret === undefined || clientId === '') return null;
  return { clientId, secret };
}

function formDecode(value: string): string | undefined {
  // Generated client ids and secrets (UUIDs, base64url) hold nothing to decode.
  if (!value.includes('%') && !value.includes('+')) return value;
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
