import { Injectable } from '@nestjs/common';
import type { IdentitiesConfig, IdentitySchemaSource } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ConfigError } from '../../config/config.error.js';
import { IdentitiesError } from '../identities.errors.js';
import { BUILT_IN_IDENTITY_SCHEMA } from './built-in-identity-schema.js';
import { IdentitySchema } from './identity-schema.js';
import { KRATOS_EXTENSION_KEYWORD } from './kratos-extension.js';
import { SchemaCompiler } from './schema-compiler.js';

const BUILT_IN_ID = 'default';

/**
 * The identity schemas of this deployment, compiled once at boot. A schema that does not compile, or a
 * default id that names none, stops the boot with a ConfigError naming the key.
 */
@Injectable()
export class IdentitySchemaRegistry {
  private readonly schemas = new Map<string, IdentitySchema>();
  readonly defaultId: string;
  /** Identifier trait paths over all schemas: the `traits.<path>=` list filters accepted. */
  readonly identifierTraitPaths: ReadonlySet<string>;

  constructor(@InjectConfig('identities') identities: IdentitiesConfig) {
    const compiler = new SchemaCompiler();
    const sources: readonly IdentitySchemaSource[] =
      identities.schemas.length > 0 ? identities.schemas : [{ id: BUILT_IN_ID, url: 'built-in', document: BUILT_IN_IDENTITY_SCHEMA }];
    for (const source of sources) this.schemas.set(source.id, compile(compiler, source));

    const wanted = identities.defaultSchemaId;
    if (wanted !== undefined && !this.schemas.has(wanted)) {
      throw new ConfigError('IDENTITY_DEFAULT_SCHEMA_ID', `names no schema of IDENTITY_SCHEMAS: "${wanted}"`);
    }
    this.defaultId = wanted ?? (this.schemas.has(BUILT_IN_ID) ? BUILT_IN_ID : sources[0]!.id);
    this.identifierTraitPaths = new Set([...this.schemas.values()].flatMap((schema) => [...schema.identifierTraitPaths]));
  }

  /** For GET /schemas/{id}: 404 when unknown. */
  get(id: string): IdentitySchema {
    const schema = this.schemas.get(id);
    if (schema === undefined) throw IdentitiesError.schemaNotFound();
    return schema;
  }

  /** For writes: an empty or absent id is the default schema; an unknown one is a 400. */
  resolve(id: string | undefined): IdentitySchema {
    const schema = this.schemas.get(id === undefined || id === '' ? this.defaultId : id);
    if (schema === undefined) throw IdentitiesError.unknownSchema(id ?? '');
    return schema;
  }
}

function compile(compiler: SchemaCompiler, source: IdentitySchemaSource): IdentitySchema {
  const traits = (source.document['properties'] as Record<string, unknown> | undefined)?.['traits'];
  if (traits === null || typeof traits !== 'object') {
    throw new ConfigError('IDENTITY_SCHEMAS', `schema "${source.id}" must describe an object with a "traits" property`);
  }
  let run;
  try {
    run = compiler.compile(source.document);
  } catch (error) {
    throw new ConfigError('IDENTITY_SCHEMAS', `schema "${source.id}" does not compile: ${(error as Error).message}`);
  }
  return new IdentitySchema(source.id, source.document, identifierPaths(traits, []), run, (value) => compiler.isEmail(value));
}

/** Identifier traits reachable through nested `properties` (no `$ref`, no arrays). */
function identifierPaths(node: unknown, path: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (node === null || typeof node !== 'object') return found;
  const extension = (node as Record<string, unknown>)[KRATOS_EXTENSION_KEYWORD] as
    { credentials?: { password?: { identifier?: unknown } } } | undefined;
  if (path.length > 0 && extension?.credentials?.password?.identifier === true) found.add(path.join('.'));
  const properties = (node as Record<string, unknown>)['properties'];
  if (properties !== null && typeof properties === 'object') {
    for (const [name, child] of Object.entries(properties)) {
      for (const nested of identifierPaths(child, [...path, name])) found.add(nested);
    }
  }
  return found;
}
