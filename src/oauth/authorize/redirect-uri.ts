import type { Client } from '../../clients/index.js';
import { AuthorizeError } from './authorize.errors.js';

/** Hosts whose registered http redirect URIs accept any port (RFC 8252 §7.3, RFC 9700 §4.1.3). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
const PORT = /^\d{1,5}$/;

/**
 * The redirect URI of an authorization request (RFC 6749 §3.1.2.3, RFC 9700 §2.1): the requested one
 * when it equals a registered one character for character (or differs only in the port of a loopback
 * http URI), the only registered one when none is requested. Anything else is an error that must not
 * be sent to any redirect URI.
 */
export function resolveRedirectUri(client: Client, requested: string | undefined): string {
  if (requested === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0]!;
    throw AuthorizeError.invalidRequest(
      client.redirectUris.length === 0
        ? 'The client has no registered redirect_uri.'
        : 'redirect_uri is required: the client has registered more than one.',
    );
  }
  if (requested.includes('#')) throw AuthorizeError.invalidRequest('redirect_uri must not contain a fragment.');
  const matches = client.redirectUris.some((registered) => registered === requested || sameLoopbackUriButPort(registered, requested));
  if (!matches) throw AuthorizeError.invalidRequest("redirect_uri does not match any of the client's registered redirect URIs.");
  return requested;
}

/** Both are `http://<the same loopback host>[:port]<the same rest>`, compared as strings. */
function sameLoopbackUriButPort(registered: string, requested: string): boolean {
  const a = splitHttpAuthority(registered);
  const b = splitHttpAuthority(requested);
  if (a === undefined || b === undefined) return false;
  return LOOPBACK_HOSTS.has(a.host) && a.host === b.host && a.rest === b.rest && validPort(b.port) && validPort(a.port);
}

function splitHttpAuthority(uri: string): { host: string; port: string | undefined; rest: string } | undefined {
  if (!uri.startsWith('http://')) return undefined;
  const afterScheme = uri.slice('http://'.length);
  const end = afterScheme.search(/[/?#]/);
  const authority = end === -1 ? afterScheme : afterScheme.slice(0, end);
  const rest = end === -1 ? '' : afterScheme.slice(end);
  const portAt = authority.lastIndexOf(':');
  if (portAt === -1 || authority.endsWith(']')) return { host: authority, port: undefined, rest };
  return { host: authority.slice(0, portAt), port: authority.slice(portAt + 1), rest };
}

function validPort(port: string | undefined): boolean {
  return port === undefined || (PORT.test(port) && Number(port) <= 65535);
}
