import { describe, expect, it } from 'vitest';
import { UiMessages } from './ui-messages.js';

/**
 * The catalogue is wire format: UIs built for Kratos v0.6 translate by id and show the text as a
 * fallback. Ids, types and texts as Kratos v0.6.3 has them.
 */
describe('UiMessages', () => {
  it.each([
    [UiMessages.signIn(), 1010001, 'info', 'Sign in'],
    [UiMessages.signUp(), 1040001, 'info', 'Sign up'],
    [UiMessages.settingsSaved(), 1050001, 'info', 'Your changes have been saved!'],
    [
      UiMessages.recoveryEmailSent(),
      1060002,
      'info',
      'An email containing a recovery link has been sent to the email address you provided.',
    ],
    [
      UiMessages.verificationEmailSent(),
      1070001,
      'info',
      'An email containing a verification link has been sent to the email address you provided.',
    ],
    [UiMessages.labelPassword(), 1070001, 'info', 'Password'],
    [UiMessages.labelGenerated('E-Mail'), 1070002, 'info', 'E-Mail'],
    [UiMessages.labelSave(), 1070003, 'info', 'Save'],
    [UiMessages.labelId(), 1070004, 'info', 'ID'],
    [UiMessages.labelSubmit(), 1070005, 'info', 'Submit'],
    [UiMessages.validationRequired('password'), 4000002, 'error', 'Property password is missing.'],
    [UiMessages.validationInvalidFormat('x', 'email'), 4000004, 'error', '"x" is not valid "email"'],
    [
      UiMessages.invalidCredentials(),
      4000006,
      'error',
      'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.',
    ],
    [
      UiMessages.duplicateCredentials(),
      4000007,
      'error',
      'An account with the same identifier (email, phone, username, ...) exists already.',
    ],
    [UiMessages.noLoginStrategy(), 4010002, 'error', 'Could not find a strategy to log you in with. Did you fill out the form correctly?'],
    [
      UiMessages.noRegistrationStrategy(),
      4010003,
      'error',
      'Could not find a strategy to sign you up with. Did you fill out the form correctly?',
    ],
    [
      UiMessages.noSettingsStrategy(),
      4010004,
      'error',
      'Could not find a strategy to update your settings. Did you fill out the form correctly?',
    ],
    [
      UiMessages.noRecoveryStrategy(),
      4010005,
      'error',
      'Could not find a strategy to recover your account with. Did you fill out the form correctly?',
    ],
    [
      UiMessages.noVerificationStrategy(),
      4010006,
      'error',
      'Could not find a strategy to verify your account with. Did you fill out the form correctly?',
    ],
    [UiMessages.recoveryRetrySuccess(), 4060001, 'error', 'The request was already completed successfully and can not be retried.'],
    [UiMessages.recoveryTokenInvalid(), 4060004, 'error', 'The recovery token is invalid or has already been used. Please retry the flow.'],
    [
      UiMessages.verificationTokenInvalid(),
      4070001,
      'error',
      'The verification token is invalid or has already been used. Please retry the flow.',
    ],
    [UiMessages.verificationRetrySuccess(), 4070002, 'error', 'The request was already completed successfully and can not be retried.'],
  ])('%#: id %i, %s, the reference text', (message, id, type, text) => {
    expect(message).toMatchObject({ id, type, text });
  });

  it('expiry messages give the minutes since expiry with two decimals, per kind', () => {
    const expiredAt = new Date('2026-01-01T00:00:00Z');
    const now = new Date('2026-01-01T00:01:30Z');
    expect(UiMessages.loginFlowExpired(expiredAt, now)).toMatchObject({
      id: 4010001,
      text: 'The login flow expired 1.50 minutes ago, please try again.',
    });
    expect(UiMessages.registrationFlowExpired(expiredAt, now).id).toBe(4040001);
    expect(UiMessages.settingsFlowExpired(expiredAt, now).id).toBe(4050001);
    expect(UiMessages.recoveryFlowExpired(expiredAt, now).id).toBe(4060005);
    expect(UiMessages.verificationFlowExpired(expiredAt, now).id).toBe(4070005);
  });

  it('1060001 gives the minutes left in the privileged window', () => {
    const message = UiMessages.recoverySuccessful(new Date('2026-01-01T00:15:00Z'), new Date('2026-01-01T00:00:00Z'));
    expect(message).toMatchObject({ id: 1060001, type: 'info' });
    expect(message.text).toBe(
      'You successfully recovered your account. Please change your password or set up an alternative login method (e.g. social sign in) within the next 15.00 minutes.',
    );
  });
});
