/**
 * A policy that cannot be compiled: a pattern that does not compile for its flavor, or a condition of
 * an unknown type or with unusable options. `field` names the offending member, e.g. `resources[1]` or
 * `conditions.remoteIP.options.cidr`.
 */
export class PolicyCompileError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'PolicyCompileError';
  }
}
