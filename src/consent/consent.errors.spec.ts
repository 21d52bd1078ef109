import { describe, expect, it } from 'vitest';
import { statusOf } from '../common/errors/error-kind.js';
import { ConsentError, ConsentErrorCode } from './consent.errors.js';

describe('ConsentError', () => {
  it.each([
    [ConsentError.loginRequired('x'), 'login_required', 400],
    [ConsentError.consentRequired('x'), 'consent_required', 400],
    [ConsentError.accessDenied('login'), 'access_denied', 403],
    [ConsentError.expired('consent'), 'request_unauthorized', 401],
    [ConsentError.csrf('login'), 'request_forbidden', 403],
    [ConsentError.invalidRequest('x'), 'invalid_request', 400],
    [ConsentError.notFound('logout'), 'not_found', 404],
    [ConsentError.conflict('consent'), 'conflict', 409],
  ])('%s has wire code %s and status %i', (error, code, status) => {
    expect(error.code).toBe(code);
    expect(statusOf(error.kind)).toBe(status);
  });

  it("carries a rejection's own error and status", () => {
    const error = ConsentError.rejected({
      error: 'login_denied_by_policy',
      errorDescription: 'No.',
      errorHint: 'Ask an admin.',
      errorDebug: '',
      statusCode: 403,
    });
    expect(error.reason).toBe(ConsentErrorCode.Rejected);
    expect(error.code).toBe('login_denied_by_policy');
    expect(error.message).toBe('No.');
    expect(statusOf(error.kind)).toBe(403);
    expect(error.rejection?.errorHint).toBe('Ask an admin.');
  });
});
