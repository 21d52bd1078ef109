import { STATUS_CODES } from 'node:http';
import { ErrorFamily } from './error-family.js';
import type { Problem } from './problem.js';

const INTERNAL_MESSAGE = 'The server encountered an internal error.';

/**
 * The only place that knows the three error wire shapes. `exposeInternal` adds `debug`; 5xx messages
 * are always the generic text so that no internals leak.
 */
export function renderError(family: ErrorFamily, problem: Problem, requestId: string, exposeInternal: boolean): object {
  const message = problem.status >= 500 && problem.status !== 503 ? INTERNAL_MESSAGE : problem.message;
  const debug = exposeInternal ? problem.debug : undefined;
  const status = STATUS_CODES[problem.status] ?? 'Error';
  switch (family) {
    case ErrorFamily.OAuth:
      return {
        error: problem.code,
        error_description: message,
        status_code: problem.status,
        request_id: requestId,
        ...(problem.details === undefined ? {} : { details: problem.details }),
        ...(debug === undefined ? {} : { debug }),
      };
    case ErrorFamily.Identity:
      return {
        error: {
          id: problem.code,
          code: problem.status,
          status,
          reason: message,
          message: status,
          request: requestId,
          ...(problem.details === undefined ? {} : { details: problem.details }),
          ...(debug === undefined ? {} : { debug }),
        },
      };
    case ErrorFamily.Access:
      return {
        id: problem.code,
        code: problem.status,
        status,
        reason: message,
        message: status,
        request: requestId,
        details: problem.details === undefined ? [] : [problem.details],
        ...(debug === undefined ? {} : { debug }),
      };
  }
}
