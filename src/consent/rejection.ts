import type { Rejection } from './consent.errors.js';
import type { RejectRequestDto } from './dto/reject-request.dto.js';
import type { StoredRejection } from './entities/stored-rejection.js';

/**
 * Defaults of a reject body. Hydra v1.5 fills `error` with "login request denied" / "consent request
 * denied"; that is not an RFC 6749 error code, and the value ends up in the client's redirect, so we
 * use `access_denied` ("the resource owner or authorization server denied the request", §4.1.2.1).
 */
const DEFAULT_ERROR = 'access_denied';
const DEFAULT_STATUS = 400;

export function toStoredRejection(body: RejectRequestDto, step: 'login' | 'consent'): StoredRejection {
  return {
    error: nonEmpty(body.error) ?? DEFAULT_ERROR,
    error_description: nonEmpty(body.error_description) ?? `The ${step} app denied the request.`,
    error_hint: body.error_hint ?? '',
    error_debug: body.error_debug ?? '',
    status_code: body.status_code ?? DEFAULT_STATUS,
  };
}

export function toRejection(stored: StoredRejection): Rejection {
  return {
    error: stored.error,
    errorDescription: stored.error_description,
    errorHint: stored.error_hint,
    errorDebug: stored.error_debug,
    statusCode: stored.status_code,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
