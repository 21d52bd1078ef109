/** Size limits of the policy service, checked on every input (long strings are a 400, not a 500). */
export const AcpLimits = {
  /** Policy and role ids (the access-rule id bound, 190 characters, kept for all ids of the access services). */
  idLength: 190,
  /** Patterns, members, role ids used as subjects, and the strings of an allowed request. */
  stringLength: 1024,
  descriptionLength: 4096,
  patternsPerList: 100,
  conditionsPerPolicy: 32,
  conditionKeyLength: 256,
  membersPerRole: 10_000,
  membersPerRequest: 1_000,
} as const;

/** C0 controls and DEL: never valid in an id, a pattern, a member or an allowed request (NUL, CR, LF...). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Text without control characters (class-validator `@Matches`). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** Text without NUL, which PostgreSQL cannot store. */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
export const NO_NUL = /^[^\u0000]*$/;
