import { BlockList, isIP } from 'node:net';
import type { CompiledCondition } from './compiled-condition.js';
import { ConditionType, CONDITION_TYPES } from './condition-types.js';
import { compileLinearRegExp, regExpProblem } from '../../common/regex/linear-regexp.js';
import { PolicyCompileError } from './policy-compile.error.js';
import type { AllowedRequest, ConditionDefinition } from './policy-definition.js';

/** Longest `options` string a condition may carry (a `matches` expression, a `value`, ...). */
export const MAX_CONDITION_OPTION_LENGTH = 1024;

export interface ConditionCompilation {
  /** The condition as stored and served: known options only. */
  readonly definition: ConditionDefinition;
  readonly condition: CompiledCondition;
}

/**
 * Checks one `conditions` entry and compiles it. Semantics follow Keto v0.5's Rego (the ACP engine
 * this API describes), which the request `context` feeds:
 * - StringEqualCondition: the context value is a string equal to `options.equals`.
 * - StringMatchCondition: the context value is a string in which `options.matches` (a regular
 *   expression, unanchored) finds a match.
 * - CIDRCondition: the context value is an IP address inside `options.cidr` (IPv4-mapped IPv6 too).
 * - EqualsSubjectCondition: the context value equals the request's subject.
 * - StringPairsEqualCondition: the context value is a non-empty array of two-string arrays whose two
 *   strings are equal.
 * - ResourceContainsCondition: `delimiter + resource + delimiter` contains `delimiter + value +
 *   delimiter`, with `value` and `delimiter` from `options` (Keto); without `options.value`, from the
 *   context value `{ value, delimiter }` (ladon). An empty value never matches.
 * - BooleanCondition: the context value is a boolean equal to `options.value`.
 */
export function compileCondition(key: string, raw: unknown): ConditionCompilation {
  const field = `conditions.${key}`;
  if (!isPlainObject(raw)) throw new PolicyCompileError(field, 'must be an object with "type" and "options"');
  const type = raw['type'];
  if (typeof type !== 'string' || !CONDITION_TYPES.includes(type)) {
    throw new PolicyCompileError(`${field}.type`, `unknown condition type; use one of ${CONDITION_TYPES.join(', ')}`);
  }
  const rawOptions = raw['options'] ?? {};
  if (!isPlainObject(rawOptions)) throw new PolicyCompileError(`${field}.options`, 'must be an object');
  const options = optionReader(`${field}.options`, rawOptions);
  const conditionType = type as ConditionType;
  switch (conditionType) {
    case ConditionType.StringEqual: {
      const equals = options.string('equals');
      return compiled(key, conditionType, { equals }, (value) => value === equals);
    }
    case ConditionType.StringMatch: {
      const matches = options.string('matches');
      const regexp = compileMatcher(`${field}.options.matches`, matches);
      return compiled(key, conditionType, { matches }, (value) => typeof value === 'string' && regexp.test(value));
    }
    case ConditionType.Cidr: {
      const cidr = options.string('cidr');
      const range = parseCidr(`${field}.options.cidr`, cidr);
      return compiled(key, conditionType, { cidr }, (value) => ipIn(range, value));
    }
    case ConditionType.EqualsSubject:
      return compiled(key, conditionType, {}, (value, request) => value === request.subject);
    case ConditionType.StringPairsEqual:
      return compiled(key, conditionType, {}, pairsEqual);
    case ConditionType.ResourceContains: {
      const value = options.optionalString('value');
      const delimiter = options.optionalString('delimiter');
      if (value === undefined) {
        return compiled(key, conditionType, {}, (contextValue, request) => resourceContainsFromContext(contextValue, request));
      }
      if (value === '') throw new PolicyCompileError(`${field}.options.value`, 'must not be empty');
      const stored = delimiter === undefined ? { value } : { value, delimiter };
      return compiled(key, conditionType, stored, (_value, request) => resourceContains(request.resource, value, delimiter ?? ''));
    }
    case ConditionType.Boolean: {
      const expected = options.boolean('value');
      return compiled(key, conditionType, { value: expected }, (value) => value === expected);
    }
  }
}

function compiled(
  key: string,
  type: ConditionType,
  options: Record<string, unknown>,
  holds: (value: unknown, request: AllowedRequest) => boolean,
): ConditionCompilation {
  return { definition: { type, options }, condition: { key, holds } };
}

/** Reads the options of one condition; every problem names `<field>.<option>`. */
function optionReader(field: string, options: Record<string, unknown>) {
  const optionalString = (name: string): string | undefined => {
    const value = options[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new PolicyCompileError(`${field}.${name}`, 'must be a string');
    if (value.length > MAX_CONDITION_OPTION_LENGTH) {
      throw new PolicyCompileError(`${field}.${name}`, `must be at most ${MAX_CONDITION_OPTION_LENGTH} characters`);
    }
    if (value.includes('\u0000')) throw new PolicyCompileError(`${field}.${name}`, 'must not contain NUL characters');
    return value;
  };
  return {
    optionalString,
    string: (name: string): string => {
      const value = optionalString(name);
      if (value === undefined) throw new PolicyCompileError(`${field}.${name}`, 'is required and must be a string');
      return value;
    },
    boolean: (name: string): boolean => {
      const value = options[name];
      if (typeof value !== 'boolean') throw new PolicyCompileError(`${field}.${name}`, 'is required and must be a boolean');
      return value;
    },
  };
}

function compileMatcher(field: string, source: string): RegExp {
  try {
    return compileLinearRegExp(source);
  } catch (error) {
    throw new PolicyCompileError(field, `is not a usable regular expression: ${regExpProblem(error)}`);
  }
}

function parseCidr(field: string, cidr: string): BlockList {
  const slash = cidr.indexOf('/');
  const address = slash === -1 ? '' : cidr.slice(0, slash);
  const bits = slash === -1 ? '' : cidr.slice(slash + 1);
  const family = isIP(address);
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  if (family === 0 || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
    throw new PolicyCompileError(field, 'must be a CIDR block such as 192.168.0.0/16 or 2001:db8::/32');
  }
  const list = new BlockList();
  list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  return list;
}

function ipIn(range: BlockList, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const family = isIP(value);
  if (family === 0) return false;
  return range.check(value, family === 4 ? 'ipv4' : 'ipv6');
}

function pairsEqual(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.every((pair: unknown) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && pair[0] === pair[1]);
}

function resourceContainsFromContext(value: unknown, request: AllowedRequest): boolean {
  if (!isPlainObject(value)) return false;
  const needle = value['value'];
  const delimiter = value['delimiter'] ?? '';
  if (typeof needle !== 'string' || needle === '' || typeof delimiter !== 'string') return false;
  return resourceContains(request.resource, needle, delimiter);
}

function resourceContains(resource: string, value: string, delimiter: string): boolean {
  return `${delimiter}${resource}${delimiter}`.includes(`${delimiter}${value}${delimiter}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
