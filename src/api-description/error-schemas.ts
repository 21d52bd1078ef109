import { ErrorFamily } from '../common/errors/error-family.js';

/** The component name of each family's error shape (the names the API's original descriptions use). */
export function errorSchemaName(family: ErrorFamily): string {
  switch (family) {
    case ErrorFamily.OAuth:
      return 'genericError';
    case ErrorFamily.Identity:
      return 'jsonError';
    case ErrorFamily.Access:
      return 'standardError';
  }
}

const details = { description: 'More about the problem, when there is more to say.' };
const debug = { type: 'string', description: 'Internal detail, only with EXPOSE_INTERNAL_ERRORS=true.' };

/** The three error wire shapes, as src/common/errors/error-renderer.ts writes them. */
export const ERROR_SCHEMAS: Record<string, Record<string, unknown>> = {
  genericError: {
    type: 'object',
    description: 'OAuth 2.0 family error (clients, keys, OAuth2/OIDC, consent hand-off, health): RFC 6749 codes in `error`.',
    required: ['error', 'error_description', 'status_code'],
    properties: {
      error: { type: 'string' },
      error_description: { type: 'string' },
      status_code: { type: 'integer' },
      request_id: { type: 'string' },
      details,
      debug,
    },
  },
  jsonError: {
    type: 'object',
    description: 'Identity family error (identities, self-service, schemas).',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'status', 'reason', 'message'],
        properties: {
          id: { type: 'string' },
          code: { type: 'integer' },
          status: { type: 'string' },
          reason: { type: 'string' },
          message: { type: 'string' },
          request: { type: 'string' },
          details,
          debug,
        },
      },
    },
  },
  standardError: {
    type: 'object',
    description: 'Access family error (relation tuples, policies).',
    required: ['code', 'status', 'reason', 'message', 'request', 'details'],
    properties: {
      id: { type: 'string' },
      code: { type: 'integer' },
      status: { type: 'string' },
      reason: { type: 'string' },
      message: { type: 'string' },
      request: { type: 'string' },
      details: { type: 'array', items: {} },
      debug,
    },
  },
};
