/**
 * The leaf paths of a JSON Schema with dotted names (`traits.name.first`), the way Kratos' form parser
 * and form builder see a schema (ory/x `jsonschemax.ListPaths`). Local `$ref`s
 * (`#/definitions/x`, `#/$defs/x`) are followed up to `MAX_REF_DEPTH` deep, as Kratos does.
 */
export type PathType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

export interface SchemaPath {
  /** Dotted name: the HTML input `name`. */
  readonly name: string;
  readonly type: PathType;
  /** For arrays: the item type when it is a single scalar type. */
  readonly itemType?: 'string' | 'number' | 'integer' | 'boolean';
  readonly format?: string;
  readonly pattern?: string;
  readonly title?: string;
  /** Listed in its parent's `required`. */
  readonly required: boolean;
}

const MAX_REF_DEPTH = 5;
const SCALARS = new Set(['string', 'number', 'integer', 'boolean']);

type Node = Readonly<Record<string, unknown>>;

/** Every leaf path under `root` (a schema), prefixed with `prefix` (e.g. `traits`). Objects with properties are walked, not listed. */
export function listSchemaPaths(document: Node, root: Node, prefix: string): SchemaPath[] {
  const found: SchemaPath[] = [];
  walk(document, root, prefix, false, 0, found);
  return found;
}

/** The `traits` sub-schema of an identity schema document (`properties.traits`), resolved. */
export function traitsSchemaOf(document: Node): Node {
  const traits = (document['properties'] as Node | undefined)?.['traits'];
  return resolve(document, isNode(traits) ? traits : {}, 0) ?? {};
}

function walk(document: Node, raw: Node, name: string, required: boolean, depth: number, found: SchemaPath[]): void {
  const schema = resolve(document, raw, depth);
  if (schema === undefined) return;
  const refDepth = typeof raw['$ref'] === 'string' ? depth + 1 : depth;
  const type = typeOf(schema);
  const properties = schema['properties'];
  if ((type === 'object' || type === undefined) && isNode(properties)) {
    const requiredList = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
    for (const [key, child] of Object.entries(properties)) {
      if (!isNode(child)) continue;
      walk(document, child, name === '' ? key : `${name}.${key}`, requiredList.includes(key), refDepth, found);
    }
    return;
  }
  if (type === undefined) return;
  const path: { -readonly [K in keyof SchemaPath]: SchemaPath[K] } = { name, type, required };
  if (type === 'array') {
    const items = isNode(schema['items']) ? resolve(document, schema['items'], refDepth) : undefined;
    const itemType = items === undefined ? undefined : typeOf(items);
    if (itemType !== undefined && SCALARS.has(itemType)) path.itemType = itemType as SchemaPath['itemType'];
  }
  if (typeof schema['format'] === 'string') path.format = schema['format'];
  if (typeof schema['pattern'] === 'string') path.pattern = schema['pattern'];
  if (typeof schema['title'] === 'string') path.title = schema['title'];
  found.push(path);
}

function typeOf(schema: Node): PathType | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return isPathType(type) ? type : undefined;
  // `["string", "null"]`: the first non-null type decides.
  if (Array.isArray(type)) return type.find((entry): entry is PathType => typeof entry === 'string' && isPathType(entry));
  if (isNode(schema['properties'])) return 'object';
  return undefined;
}

function isPathType(type: string): type is PathType {
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'array' || type === 'object';
}

/** Follows a local `$ref`; undefined past the depth limit or for a reference that does not resolve. */
function resolve(document: Node, schema: Node, depth: number): Node | undefined {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  if (depth >= MAX_REF_DEPTH || !ref.startsWith('#/')) return undefined;
  let target: unknown = document;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isNode(target) ? target[key] : undefined;
  }
  return isNode(target) ? resolve(document, target, depth + 1) : undefined;
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
