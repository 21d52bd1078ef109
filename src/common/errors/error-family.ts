import type { Listener } from '../http/listener.js';

/** The three wire shapes of errors (see docs/errors.md). */
export enum ErrorFamily {
  /** `genericError`: clients, keys, OAuth2/OIDC, consent, /userinfo, and the plumbing. */
  OAuth = 'oauth',
  /** `jsonError`: identities, self-service, directory sync (connections and webhooks). */
  Identity = 'identity',
  /** The standard error of the access services: tuples, policies, rules, decisions, proxy. */
  Access = 'access',
}

const PREFIXES: ReadonlyArray<readonly [string, ErrorFamily]> = [
  ['/identities', ErrorFamily.Identity],
  ['/schemas', ErrorFamily.Identity],
  ['/self-service', ErrorFamily.Identity],
  ['/sessions', ErrorFamily.Identity],
  ['/recovery', ErrorFamily.Identity],
  ['/courier', ErrorFamily.Identity],
  ['/webhooks', ErrorFamily.Identity],
  ['/directory-sync', ErrorFamily.Identity],
  ['/relation-tuples', ErrorFamily.Access],
  ['/check', ErrorFamily.Access],
  ['/expand', ErrorFamily.Access],
  ['/namespaces', ErrorFamily.Access],
  ['/engines', ErrorFamily.Access],
  ['/rules', ErrorFamily.Access],
  ['/decisions', ErrorFamily.Access],
];

/**
 * Which family owns a path. Decided by path rather than by the matched controller so that unknown
 * routes, bad bodies and other errors raised before routing get the shape of the context that owns
 * the path. Anything else (OAuth2, clients, keys, health, unknown paths) is the OAuth family.
 */
export function familyOf(listener: Listener | undefined, path: string): ErrorFamily {
  if (listener === 'proxy') return ErrorFamily.Access;
  for (const [prefix, family] of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)) return family;
  }
  return ErrorFamily.OAuth;
}
