import type { SchemaPath } from './schema-paths.js';

/**
 * Decoding of self-service submissions by a schema (Kratos' ory/x `decoderx`). Pure:
 * no HTTP, no I/O.
 *
 * HTML forms (`application/x-www-form-urlencoded`) carry only strings, so each field's type comes from
 * the schema path with exactly that dotted name; any other name is dropped:
 * - `string`: the first value;
 * - `number`/`integer`: the first value as a number; a value that is not a number is kept as the raw
 *   string so that schema validation reports the type error; an empty value is treated as absent (an
 *   empty optional number input must not fail the form — Kratos would keep "" and fail);
 * - `boolean`: the LAST value (`"true"`/`"false"`), which makes the hidden `false` + checkbox `true`
 *   pattern work; anything else is kept raw;
 * - `array`: every value in order, each converted by the item type;
 * - `object` (no properties in the schema): the value parsed as a JSON object, `{}` when absent.
 * Dotted names build nested objects (`traits.name.first` → `{traits: {name: {first}}}`).
 */
export type FormFields = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Names that would reach an object's prototype; never used as keys. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function parseForm(fields: FormFields, paths: readonly SchemaPath[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const path of paths) {
    const raw = fields[path.name];
    const values = raw === undefined ? [] : typeof raw === 'string' ? [raw] : [...raw];
    if (values.length === 0) {
      if (path.type === 'object') setPath(result, path.name, {});
      continue;
    }
    const value = decodeValue(path, values);
    if (value !== undefined) setPath(result, path.name, value);
  }
  return result;
}

/**
 * A JSON body: when every top-level value is a scalar it is read like a form (so
 * `{"traits.email": "a@b.c"}` nests and `{"traits.age": "5"}` becomes a number); otherwise it is
 * plain JSON and returned as it is (the caller validates it). Kratos' "JSON follows form format".
 */
export function decodeJsonBody(body: unknown, paths: readonly SchemaPath[]): Record<string, unknown> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entries = Object.entries(body as Record<string, unknown>);
  const scalar = entries.every(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value));
  if (!scalar) return body as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const [key, value] of entries) if (value !== null) fields[key] = String(value);
  return parseForm(fields, paths);
}

function decodeValue(path: SchemaPath, values: readonly string[]): unknown {
  switch (path.type) {
    case 'string':
      return values[0];
    case 'number':
    case 'integer':
      return toNumber(values[0]!);
    case 'boolean':
      return toBoolean(values[values.length - 1]!);
    case 'array':
      return values.map((value) => convertItem(path.itemType, value)).filter((value) => value !== undefined);
    case 'object':
      return toObject(values[0]!);
  }
}

function convertItem(itemType: SchemaPath['itemType'], value: string): unknown {
  switch (itemType) {
    case 'number':
    case 'integer':
      return toNumber(value);
    case 'boolean':
      return toBoolean(value);
    case 'string':
    case undefined:
      return value;
  }
}

function toNumber(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return NUMBER.test(trimmed) ? Number(trimmed) : value;
}

function toBoolean(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function toObject(value: string): unknown {
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const segments = dotted.split('.');
  if (segments.some((segment) => FORBIDDEN_SEGMENTS.has(segment) || segment === '')) return;
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1]!] = value;
}
