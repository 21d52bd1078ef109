import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import type { DataValidationCxt, RegExpEngine } from 'ajv/dist/types/index.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { ExtensionHit, TraitsValidator } from './identity-schema.js';
import { KRATOS_EXTENSION_KEYWORD, KRATOS_EXTENSION_META_SCHEMA, type KratosExtensionConfig } from './kratos-extension.js';
import { compileLinearRegExp } from '../../common/regex/linear-regexp.js';
import { isEmailAddress } from './email-address.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext its default import is the module object.
const formatsPlugin = formatsModule.default;

/** Ajv keyword names cannot hold `.` or `/`: the vendor key is renamed to this one before compiling. */
const INTERNAL_KEYWORD = 'x-ory-sh-kratos';
/** Keywords whose members are names chosen by the schema author, not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * Compiles identity schemas with Ajv: JSON Schema draft-07 (also when `$schema` is absent, as in
 * Kratos' examples) or 2020-12, formats checked (ajv-formats), strict about unknown keywords and
 * formats so that a typo stops the boot rather than silently accepting everything.
 *
 * The `ory.sh/kratos` keyword is registered as a validating keyword that records where it met which
 * value. Ajv validation is synchronous, so one collector per compiler is enough.
 */
const LINEAR_PATTERNS: RegExpEngine = Object.assign((pattern: string, flags: string) => compileLinearRegExp(pattern, flags), {
  code: 'compileLinearRegExp',
});

export class SchemaCompiler {
  private readonly draft07: Ajv;
  private readonly draft2020: Ajv2020;
  private collector: ExtensionHit[] | undefined;

  constructor() {
    const options = {
      allErrors: false,
      strict: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      logger: false,
      // `pattern` and `patternProperties` run against registrants' traits: compiled by the one linear-time
      // helper, which has no `u` form (a pattern needing `\p{…}` is refused when the schema is loaded).
      unicodeRegExp: false,
      code: { regExp: LINEAR_PATTERNS },
    } as const;
    this.draft07 = this.prepare(new Ajv(options));
    this.draft2020 = this.prepare(new Ajv2020(options));
  }

  /** Throws (Ajv's message) when the document is not a schema this compiler accepts. */
  compile(document: Readonly<Record<string, unknown>>): TraitsValidator {
    const dialect = document['$schema'];
    const schema = renameExtension(document, false) as AnySchemaObject;
    let validate: ValidateFunction;
    if (dialect === undefined || (typeof dialect === 'string' && DRAFT_07.test(dialect))) {
      validate = this.draft07.compile(schema);
    } else if (typeof dialect === 'string' && DRAFT_2020_12.test(dialect)) {
      validate = this.draft2020.compile(schema);
    } else {
      throw new Error(`$schema must be draft-07 or 2020-12, got ${JSON.stringify(dialect)}`);
    }
    return (data: unknown) => {
      const hits: ExtensionHit[] = [];
      this.collector = hits;
      try {
        validate(data);
      } finally {
        this.collector = undefined;
      }
      return { validate, hits };
    };
  }

  /** Whether a string passes the `email` format (for addresses marked `via: email`). */
  isEmail(value: string): boolean {
    return isEmailAddress(value);
  }

  private prepare<T extends Ajv>(ajv: T): T {
    formatsPlugin(ajv);
    ajv.addFormat('email', (value: string) => this.isEmail(value));
    ajv.addFormat('idn-email', (value: string) => this.isEmail(value));
    ajv.addKeyword({
      keyword: INTERNAL_KEYWORD,
      metaSchema: KRATOS_EXTENSION_META_SCHEMA,
      errors: false,
      validate: (config: KratosExtensionConfig, value: unknown, _parent?: AnySchemaObject, context?: DataValidationCxt) => {
        this.collector?.push({ instancePath: context?.instancePath ?? '', value, config });
        return true;
      },
    });
    return ajv;
  }
}

/** A copy of the schema with every `ory.sh/kratos` keyword (not property name) renamed for Ajv. */
function renameExtension(node: unknown, isNameMap: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => renameExtension(item, false));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      !isNameMap && key === KRATOS_EXTENSION_KEYWORD ? INTERNAL_KEYWORD : key,
      renameExtension(value, !isNameMap && NAME_MAPS.has(key)),
    ]),
  );
}
