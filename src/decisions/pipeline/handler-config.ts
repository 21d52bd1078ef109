import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import type { PipelineSettings } from '../../config/app-config.js';

export type HandlerKind = 'authenticators' | 'authorizers' | 'mutators' | 'errors';

/**
 * A problem with a rule's handler, reported at load with the path of the offending member;
 * `deferred` when only the configuration keeps the handler from running (see RuleProblem).
 */
export interface HandlerProblem {
  readonly path: string;
  readonly message: string;
  readonly deferred?: true;
}

export class HandlerConfigError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'HandlerConfigError';
  }
}

const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: true });
const compiled = new WeakMap<AnySchemaObject, ValidateFunction>();

/**
 * Validates a merged handler config against the handler's JSON schema (Ajv, defaults filled in) and
 * returns it; throws HandlerConfigError naming the member, so a bad rule is reported at load.
 */
export function validated<T>(schema: AnySchemaObject, config: Record<string, unknown>, path: string): T {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const copy = structuredClone(config);
  if (!validate(copy)) {
    const [error] = validate.errors ?? [];
    const where = `${path}${error?.instancePath.replaceAll('/', '.') ?? ''}`;
    const extra = error?.keyword === 'additionalProperties' ? ` (${String(error.params['additionalProperty'])})` : '';
    throw new HandlerConfigError(where, `${error?.message ?? 'is invalid'}${extra}`);
  }
  return copy as T;
}

/**
 * The global config of a handler deep-merged under the rule's own (the rule wins; arrays are
 * replaced, not concatenated), as Oathkeeper merges them.
 */
export function mergedConfig(settings: PipelineSettings, kind: HandlerKind, handler: string, own: unknown): Record<string, unknown> {
  const global = settings[kind][handler]?.config ?? {};
  return deepMerge(global, isObject(own) ? own : {});
}

/**
 * Whether a handler may run: explicitly enabled or disabled in DECISIONS_PIPELINE, or, when not
 * set, enabled only where it stays in process (handlers that would reach another host must be
 * enabled by name).
 */
export function isEnabled(settings: PipelineSettings, kind: HandlerKind, handler: string, reachesOtherHost: boolean): boolean {
  const enabled = settings[kind][handler]?.enabled;
  return enabled ?? !reachesOtherHost;
}

export function deepMerge(base: Readonly<Record<string, unknown>>, override: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON-schema pieces shared by the handlers' schemas. */
export const Schemas = {
  string: { type: 'string' },
  url: { type: 'string', pattern: '^https?://' },
  stringList: { type: 'array', items: { type: 'string' } },
  scopeStrategy: { type: 'string', enum: ['hierarchic', 'exact', 'wildcard', 'none'] },
  tokenFrom: {
    type: 'object',
    additionalProperties: false,
    maxProperties: 1,
    properties: {
      header: { type: 'string', minLength: 1 },
      query_parameter: { type: 'string', minLength: 1 },
      cookie: { type: 'string', minLength: 1 },
    },
  },
} as const;

const UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`15m`, `1h30m`, `90s`) in milliseconds; at least `minMs` (a second unless told). */
export function goDuration(text: string, path: string, minMs = 1000): number {
  const parts = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/.test(text) ? [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)] : [];
  const ms = parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNITS[unit!]!, 0);
  if (parts.length === 0 || ms < minMs || ms > 366 * 24 * 3_600_000)
    throw new HandlerConfigError(
      path,
      `must be a duration such as 15m, between ${minMs < 1000 ? `${minMs}ms` : `${minMs / 1000}s`} and a year`,
    );
  return ms;
}
