/** Trait path → path into an event's `data`, both dotted. */
export type TraitsMapping = Readonly<Record<string, string>>;

/** Segments that would reach an object's prototype instead of a member. */
const UNSAFE_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * The mapping a schema gets when WEBHOOKS_TRAITS_MAPPING names none: `email` → the schema's first
 * top-level e-mail trait; `first_name`/`last_name` → `name.first`/`name.last` (or
 * `name.given`/`name.family`, or top-level `first_name`/`last_name`) when the schema has them.
 */
export function defaultTraitsMapping(schemaDocument: Readonly<Record<string, unknown>>): Record<string, string> {
  const properties = propertiesOf(propertiesOf(schemaDocument)['traits']);
  const mapping: Record<string, string> = {};
  const email = Object.entries(properties).find(([, property]) => isEmailProperty(property));
  if (email !== undefined) mapping[email[0]] = 'email';
  const name = propertiesOf(properties['name']);
  for (const [first, last] of [
    ['first', 'last'],
    ['given', 'family'],
  ] as const) {
    if (name[first] !== undefined && name[last] !== undefined) {
      mapping[`name.${first}`] = 'first_name';
      mapping[`name.${last}`] = 'last_name';
      return mapping;
    }
  }
  if (properties['first_name'] !== undefined) mapping['first_name'] = 'first_name';
  if (properties['last_name'] !== undefined) mapping['last_name'] = 'last_name';
  return mapping;
}

/**
 * Builds traits from an event's `data`: each mapped trait gets the value at its data path. Absent,
 * null and empty values are left out (the schema decides whether the trait is required).
 */
export function mapTraits(data: Readonly<Record<string, unknown>>, mapping: TraitsMapping): Record<string, unknown> {
  const traits: Record<string, unknown> = {};
  for (const [traitPath, dataPath] of Object.entries(mapping)) {
    const value = read(data, dataPath.split('.'));
    if (value === undefined || value === null || value === '') continue;
    write(traits, traitPath.split('.'), value);
  }
  return traits;
}

function read(data: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let current: unknown = data;
  for (const segment of path) {
    if (UNSAFE_SEGMENTS.has(segment) || current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function write(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  if (path.some((segment) => UNSAFE_SEGMENTS.has(segment))) return;
  let current = target;
  for (const segment of path.slice(0, -1)) {
    const next = current[segment];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  current[path.at(-1)!] = value;
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (schema === null || typeof schema !== 'object') return {};
  const properties = (schema as { properties?: unknown }).properties;
  return properties !== null && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
}

function isEmailProperty(property: unknown): boolean {
  if (property === null || typeof property !== 'object') return false;
  const { type, format } = property as { type?: unknown; format?: unknown };
  return type === 'string' && (format === 'email' || format === 'idn-email');
}
