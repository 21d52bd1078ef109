import { TokenError } from '../tokens/token.errors.js';

/** The parameters of an `application/x-www-form-urlencoded` OAuth 2.0 request, each given once. */
export type FormParameters = Readonly<Partial<Record<string, string>>>;

const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Checks and types the body of a form endpoint (token, revoke, introspect, userinfo). RFC 6749 §5.2:
 * a parameter given twice is an `invalid_request`, as is a body in another format (a JSON body is
 * parsed by the framework, so it is refused here rather than read by mistake).
 */
export function formParameters(body: unknown, contentType: string | undefined): FormParameters {
  if (contentType === undefined || !contentType.toLowerCase().startsWith(FORM_TYPE)) {
    throw TokenError.invalidRequest(`The request body must be ${FORM_TYPE}.`);
  }
  if (body === undefined || body === null) return {};
  const fields = body as Record<string, unknown>;
  const parameters: Record<string, string> = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (typeof value !== 'string') throw TokenError.invalidRequest(`The parameter ${name} is repeated.`, name);
    // Hydra treats an empty parameter as an absent one.
    if (value !== '') parameters[name] = value;
  }
  return parameters;
}

/** A required parameter, or `invalid_request` naming it. */
export function required(parameters: FormParameters, name: string): string {
  const value = parameters[name];
  if (value === undefined) throw TokenError.invalidRequest(`The parameter ${name} is missing.`, name);
  return value;
}

/** Splits a space-delimited list (RFC 6749 §3.3), dropping empty entries and repeats. */
export function spaceList(value: string | undefined): string[] {
  if (value === undefined || value === '') return [];
  // The common case, one value: no split, filter or Set (this runs on every token request).
  if (!value.includes(' ')) return [value];
  return [...new Set(value.split(' ').filter((item) => item !== ''))];
}
