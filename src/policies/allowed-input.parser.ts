import type { AllowedRequest } from './engine/policy-definition.js';
import { parseText } from './acp-params.js';
import { PoliciesError } from './policies.errors.js';

const FIELDS = new Set(['subject', 'resource', 'action', 'context']);

/**
 * The body of `POST .../allowed` (Keto's allowed input): `subject`, `resource`, `action` (strings,
 * default ""), `context` (an object, default {}); the body itself is optional. Unknown members are a
 * 400, as Keto refuses them. Parsed by hand rather than by a class-validator DTO because this is the
 * hot path: a DTO round-trip costs more than the decision.
 */
export function parseAllowedInput(body: unknown): AllowedRequest {
  if (body === undefined || body === null) return { subject: '', resource: '', action: '', context: {} };
  if (typeof body !== 'object' || Array.isArray(body)) throw PoliciesError.invalidInput('body', 'must be a JSON object');
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) if (!FIELDS.has(key)) throw PoliciesError.invalidInput(key, 'is not a member of the allowed input');
  const context = input['context'] ?? {};
  if (typeof context !== 'object' || context === null || Array.isArray(context))
    throw PoliciesError.invalidInput('context', 'must be an object');
  return {
    subject: text(input, 'subject'),
    resource: text(input, 'resource'),
    action: text(input, 'action'),
    context: context as Record<string, unknown>,
  };
}

function text(input: Record<string, unknown>, field: string): string {
  const value = input[field] ?? '';
  if (typeof value !== 'string') throw PoliciesError.invalidInput(field, 'must be a string');
  return parseText(value, field);
}
