import { FLAVORS, type Flavor } from './engine/policy-definition.js';
import { AcpLimits, CONTROL_CHARACTERS } from './acp-limits.js';
import { PoliciesError } from './policies.errors.js';

/** `{flavor}` of the path: anything but `regex`, `glob` or `exact` is a 404 (Keto). */
export function parseFlavor(value: string): Flavor {
  if (!(FLAVORS as readonly string[]).includes(value)) throw PoliciesError.unknownFlavor();
  return value as Flavor;
}

/** A policy or role id from the path. */
export function parseId(value: string, field = 'id'): string {
  return checkedText(value, field, AcpLimits.idLength);
}

/** A member, subject, resource or action: from the path, a list filter, or an allowed request. */
export function parseText(value: string, field: string): string {
  return checkedText(value, field, AcpLimits.stringLength);
}

function checkedText(value: string, field: string, maxLength: number): string {
  if (value.length > maxLength) throw PoliciesError.invalidInput(field, `must be at most ${maxLength} characters`);
  if (CONTROL_CHARACTERS.test(value)) throw PoliciesError.invalidInput(field, 'must not contain control characters');
  return value;
}
