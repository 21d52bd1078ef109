/** One entry of a `claims` request member: null (asked for, voluntary) or how it is asked for. */
export interface ClaimRequest {
  readonly essential?: boolean;
  readonly value?: unknown;
  readonly values?: readonly unknown[];
}

/** The `claims` authorization parameter (OIDC Core §5.5): which claims go to the ID token, which to /userinfo. */
export interface ClaimsRequest {
  readonly id_token?: Readonly<Record<string, ClaimRequest | null>>;
  readonly userinfo?: Readonly<Record<string, ClaimRequest | null>>;
}

const MEMBERS = ['id_token', 'userinfo'] as const;

/**
 * Parses the `claims` parameter; undefined when absent, a string naming the problem when malformed.
 * Members other than `id_token` and `userinfo` are ignored (OIDC Core §5.5: unknown members are).
 */
export function parseClaimsRequest(raw: string | undefined): ClaimsRequest | undefined | string {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'claims must be a JSON object.';
  }
  if (!isObject(parsed)) return 'claims must be a JSON object.';
  const request: Record<string, Record<string, ClaimRequest | null>> = {};
  for (const member of MEMBERS) {
    const entries = parsed[member];
    if (entries === undefined) continue;
    if (!isObject(entries)) return `claims.${member} must be a JSON object.`;
    const checked: Record<string, ClaimRequest | null> = {};
    for (const [name, entry] of Object.entries(entries)) {
      if (entry === null) {
        checked[name] = null;
        continue;
      }
      if (!isObject(entry)) return `claims.${member}.${name} must be null or a JSON object.`;
      if (entry['essential'] !== undefined && typeof entry['essential'] !== 'boolean')
        return `claims.${member}.${name}.essential must be a boolean.`;
      if (entry['values'] !== undefined && !Array.isArray(entry['values'])) return `claims.${member}.${name}.values must be an array.`;
      checked[name] = {
        ...(entry['essential'] === undefined ? {} : { essential: entry['essential'] }),
        ...(entry['value'] === undefined ? {} : { value: entry['value'] }),
        ...(entry['values'] === undefined ? {} : { values: entry['values'] as unknown[] }),
      };
    }
    request[member] = checked;
  }
  return request;
}

/**
 * The granted claims (consent's `session.id_token`) split by where the `claims` parameter asked for
 * them: a claim asked for only under `userinfo` stays out of the ID token, one asked for only under
 * `id_token` stays out of /userinfo; every other granted claim goes to both, as without the parameter.
 */
export function claimsByDestination(
  granted: Readonly<Record<string, unknown>>,
  request: ClaimsRequest | undefined,
): { readonly idToken: Readonly<Record<string, unknown>>; readonly userinfo: Readonly<Record<string, unknown>> } {
  if (request === undefined) return { idToken: granted, userinfo: granted };
  const forIdToken = new Set(Object.keys(request.id_token ?? {}));
  const forUserinfo = new Set(Object.keys(request.userinfo ?? {}));
  const idToken: Record<string, unknown> = {};
  const userinfo: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(granted)) {
    if (!forUserinfo.has(name) || forIdToken.has(name)) idToken[name] = value;
    if (!forIdToken.has(name) || forUserinfo.has(name)) userinfo[name] = value;
  }
  return { idToken, userinfo };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
