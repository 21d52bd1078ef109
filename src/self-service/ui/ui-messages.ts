import type { UiText } from './ui-container.js';

/**
 * The UI message catalogue: ids and texts of Kratos v0.6.3 (`text/*.go`), so UIs
 * built for it translate the same ids. Only the messages a flow here produces are listed.
 */

function info(id: number, text: string, context?: Record<string, unknown>): UiText {
  return context === undefined ? { id, text, type: 'info' } : { id, text, type: 'info', context };
}

function error(id: number, text: string, context: Record<string, unknown> = {}): UiText {
  return { id, text, type: 'error', context };
}

/** `{%.2f}` minutes since `expiredAt`, as Kratos renders it. */
function minutesSince(expiredAt: Date, now: Date): string {
  return (Math.max(0, now.getTime() - expiredAt.getTime()) / 60_000).toFixed(2);
}

export const UiMessages = {
  // Info: labels and outcomes.
  signIn: () => info(1010001, 'Sign in', {}),
  signUp: () => info(1040001, 'Sign up', {}),
  settingsSaved: () => info(1050001, 'Your changes have been saved!', {}),
  /** Recovery succeeded: change the password within the privileged window (minutes left). */
  recoverySuccessful: (privilegedSessionExpiresAt: Date, now: Date = new Date()) =>
    info(
      1060001,
      `You successfully recovered your account. Please change your password or set up an alternative login method (e.g. social sign in) within the next ${(
        Math.max(0, privilegedSessionExpiresAt.getTime() - now.getTime()) / 60_000
      ).toFixed(2)} minutes.`,
      { privilegedSessionExpiresAt: privilegedSessionExpiresAt.toISOString() },
    ),
  recoveryEmailSent: () => info(1060002, 'An email containing a recovery link has been sent to the email address you provided.', {}),
  /** Kratos v0.6 gives this the id 1070001, the same as the "Password" label. */
  verificationEmailSent: () =>
    info(1070001, 'An email containing a verification link has been sent to the email address you provided.', {}),
  labelPassword: () => info(1070001, 'Password'),
  /** A label generated from a schema property's `title`. */
  labelGenerated: (title: string) => info(1070002, title, { title }),
  labelSave: () => info(1070003, 'Save'),
  labelId: () => info(1070004, 'ID'),
  labelSubmit: () => info(1070005, 'Submit'),

  // Validation errors.
  validationGeneric: (reason: string) => error(4000001, reason, { reason }),
  validationRequired: (property: string) => error(4000002, `Property ${property} is missing.`, { property }),
  /** A value that does not match its format, e.g. the `email` of a recovery or verification form. */
  validationInvalidFormat: (value: string, format: string) => error(4000004, `"${value}" is not valid "${format}"`, { value, format }),
  invalidCredentials: () =>
    error(
      4000006,
      'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
    ),
  duplicateCredentials: () => error(4000007, 'An account with the same identifier (email, phone, username, ...) exists already.'),

  // Flow errors.
  loginFlowExpired: (expiredAt: Date, now: Date = new Date()) =>
    error(4010001, `The login flow expired ${minutesSince(expiredAt, now)} minutes ago, please try again.`, {
      expired_at: expiredAt.toISOString(),
    }),
  identityDisabled: () => error(4010011, 'This account has been disabled. Please contact support for assistance.'),
  noLoginStrategy: () => error(4010002, 'Could not find a strategy to log you in with. Did you fill out the form correctly?'),
  noRegistrationStrategy: () => error(4010003, 'Could not find a strategy to sign you up with. Did you fill out the form correctly?'),
  noSettingsStrategy: () => error(4010004, 'Could not find a strategy to update your settings. Did you fill out the form correctly?'),
  noRecoveryStrategy: () => error(4010005, 'Could not find a strategy to recover your account with. Did you fill out the form correctly?'),
  noVerificationStrategy: () =>
    error(4010006, 'Could not find a strategy to verify your account with. Did you fill out the form correctly?'),
  registrationFlowExpired: (expiredAt: Date, now: Date = new Date()) =>
    error(4040001, `The registration flow expired ${minutesSince(expiredAt, now)} minutes ago, please try again.`, {
      expired_at: expiredAt.toISOString(),
    }),
  settingsFlowExpired: (expiredAt: Date, now: Date = new Date()) =>
    error(4050001, `The settings flow expired ${minutesSince(expiredAt, now)} minutes ago, please try again.`, {
      expired_at: expiredAt.toISOString(),
    }),
  recoveryRetrySuccess: () => error(4060001, 'The request was already completed successfully and can not be retried.'),
  recoveryStateFailure: () => error(4060002, 'The recovery flow reached a failure state and must be retried.'),
  recoveryTokenInvalid: () => error(4060004, 'The recovery token is invalid or has already been used. Please retry the flow.'),
  recoveryFlowExpired: (expiredAt: Date, now: Date = new Date()) =>
    error(4060005, `The recovery flow expired ${minutesSince(expiredAt, now)} minutes ago, please try again.`, {
      expired_at: expiredAt.toISOString(),
    }),
  verificationTokenInvalid: () => error(4070001, 'The verification token is invalid or has already been used. Please retry the flow.'),
  verificationRetrySuccess: () => error(4070002, 'The request was already completed successfully and can not be retried.'),
  verificationStateFailure: () => error(4070003, 'The verification flow reached a failure state and must be retried.'),
  verificationFlowExpired: (expiredAt: Date, now: Date = new Date()) =>
    error(4070005, `The verification flow expired ${minutesSince(expiredAt, now)} minutes ago, please try again.`, {
      expired_at: expiredAt.toISOString(),
    }),
} as const;
