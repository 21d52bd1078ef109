/** Which rule a refused password broke: a stable code for callers and tests (the UI text may change). */
export enum PasswordPolicyRule {
  TooShort = 'too_short',
  TooLong = 'too_long',
  SimilarToIdentifier = 'similar_to_identifier',
  Common = 'common',
  Breached = 'breached',
}

/** Kratos' UI message id for a refused password: "The password can not be used because {reason}." */
export const PASSWORD_POLICY_MESSAGE_ID = 4000005;

/**
 * Why a password was refused, with the UI message Kratos v0.6 shows for it (id 4000005, `context.reason`),
 * ready to attach to the `password` node of a registration or settings flow.
 */
export interface PasswordPolicyViolation {
  readonly rule: PasswordPolicyRule;
  readonly message: {
    readonly id: typeof PASSWORD_POLICY_MESSAGE_ID;
    readonly text: string;
    readonly type: 'error';
    readonly context: { readonly reason: string };
  };
}

export function violation(rule: PasswordPolicyRule, reason: string): PasswordPolicyViolation {
  return {
    rule,
    message: {
      id: PASSWORD_POLICY_MESSAGE_ID,
      text: `The password can not be used because ${reason}.`,
      type: 'error',
      context: { reason },
    },
  };
}
