import type { SelfServiceRequest } from '../flows/self-service-request.js';
import { SelfServiceError } from '../self-service.errors.js';
import { decodeJsonBody, parseForm, type FormFields } from './form-parser.js';
import type { SchemaPath } from './schema-paths.js';

/**
 * The body of a flow submit, decoded by the paths of its form (see form-parser.ts): HTML forms
 * (`application/x-www-form-urlencoded`, as Fastify parsed them) and JSON. Anything else, or no body, is
 * a 400 `invalid_request` (Kratos refuses an empty body the same way).
 */
export function decodeSubmission(request: SelfServiceRequest, paths: readonly SchemaPath[]): Record<string, unknown> {
  const decoded = decodeBody(request, paths);
  const field = fieldWithNul(decoded, '');
  // PostgreSQL cannot store U+0000 in text or jsonb; no legitimate form value holds it.
  if (field !== undefined) throw SelfServiceError.invalidRequest(`${field} must not contain NUL characters.`, { field });
  return decoded;
}

function decodeBody(request: SelfServiceRequest, paths: readonly SchemaPath[]): Record<string, unknown> {
  const type = (request.contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const body = request.body;
  if (type === 'application/x-www-form-urlencoded' && body !== null && typeof body === 'object') {
    return parseForm(body as FormFields, paths);
  }
  if (type === 'application/json') {
    const decoded = decodeJsonBody(body, paths);
    if (decoded !== undefined) return decoded;
  }
  throw SelfServiceError.invalidRequest(
    'The request body must be a JSON object (API flows) or application/x-www-form-urlencoded (browser flows).',
  );
}

/** The dotted name of the first string (or key) holding U+0000, or undefined. */
function fieldWithNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const name = path === '' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return name;
    const found = fieldWithNul(child, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A string member of a decoded body, or undefined. */
export function stringField(body: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}
