import { decodeSubmission } from '../../forms/submission.js';
import type { SchemaPath } from '../../forms/schema-paths.js';
import type { SelfServiceRequest } from '../self-service-request.js';

/** A body decoded ahead of its step (to name what is read with the flow); `body()` returns it or throws what decoding threw. */
export interface DecodedAhead {
  readonly body: () => Record<string, unknown>;
  readonly decoded: Record<string, unknown> | undefined;
}

/**
 * `decodeSubmission` done early but judged at its step: a submit whose first reads depend on the body (login
 * reads the credential of the identifier with the flow) must not fail for a bad body before the flow
 * and the session rule have had their say.
 */
export function decodeAhead(request: SelfServiceRequest, paths: readonly SchemaPath[]): DecodedAhead {
  try {
    const decoded = decodeSubmission(request, paths);
    return { decoded, body: () => decoded };
  } catch (error) {
    return {
      decoded: undefined,
      body: () => {
        throw error;
      },
    };
  }
}
