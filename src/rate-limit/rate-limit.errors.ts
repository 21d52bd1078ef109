import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';

export enum RateLimitErrorCode {
  /** The project's burst or sustained limit of the request's bucket is spent. */
  LimitExceeded = 'limit_exceeded',
  /** An enforced inflight rule: a request for the same resource is still being served. */
  ConcurrentRequest = 'concurrent_request',
}

/** The 429 of the rate limits, rendered in the shape of whichever family owns the path. */
export class RateLimitError extends AppError {
  constructor(
    readonly reason: RateLimitErrorCode,
    message: string,
    retryAfterSeconds: number,
    details: Readonly<Record<string, unknown>>,
  ) {
    super(kindOf(reason), 'too_many_requests', message, { details, headers: { 'retry-after': String(retryAfterSeconds) } });
    this.name = 'RateLimitError';
  }

  static limitExceeded(bucket: string, retryAfterSeconds: number): RateLimitError {
    return new RateLimitError(
      RateLimitErrorCode.LimitExceeded,
      'The rate limit of this endpoint is exceeded; retry after the time given in Retry-After.',
      retryAfterSeconds,
      { reason: RateLimitErrorCode.LimitExceeded, bucket },
    );
  }

  static concurrentRequest(): RateLimitError {
    return new RateLimitError(
      RateLimitErrorCode.ConcurrentRequest,
      'Another request for the same resource is in progress; retry when it has completed.',
      1,
      { reason: RateLimitErrorCode.ConcurrentRequest },
    );
  }
}

function kindOf(reason: RateLimitErrorCode): ErrorKind {
  switch (reason) {
    case RateLimitErrorCode.LimitExceeded:
    case RateLimitErrorCode.ConcurrentRequest:
      return ErrorKind.TooManyRequests;
  }
}
