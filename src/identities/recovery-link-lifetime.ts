import { IdentitiesError } from './identities.errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;

export const DEFAULT_RECOVERY_LINK_LIFETIME_MS = 3_600_000;
/** Longest lifetime accepted: a recovery link is a bearer credential. */
export const MAX_RECOVERY_LINK_LIFETIME_MS = 30 * 24 * 3_600_000;

/**
 * `expires_in` of POST /recovery/link, in Go's `time.ParseDuration` syntax as Kratos reads it ("1h",
 * "90m", "1h30m"; no sign). Absent or empty: 1h. Must be at least one second and at most 30 days.
 */
export function recoveryLinkLifetimeMs(expiresIn: string | undefined): number {
  if (expiresIn === undefined || expiresIn === '') return DEFAULT_RECOVERY_LINK_LIFETIME_MS;
  if (!DURATION.test(expiresIn)) {
    throw IdentitiesError.invalidRequest('expires_in', 'must be a duration such as 30m, 1h or 1h30m');
  }
  let total = 0;
  for (const [, amount, unit] of expiresIn.matchAll(PART)) total += Number(amount) * UNIT_MS[unit!]!;
  if (total < 1000 || total > MAX_RECOVERY_LINK_LIFETIME_MS) {
    throw IdentitiesError.invalidRequest('expires_in', 'must be between 1s and 720h');
  }
  return Math.floor(total);
}
