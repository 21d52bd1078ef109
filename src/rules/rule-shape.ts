import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import type { AccessRule, MatchingStrategy, RuleHandler, RuleProblem, RuleValidator } from './access-rule.js';
import { normalizeIdentifier } from '../common/text/identifier-normalization.js';
import { compileUrlPattern, UrlPatternError } from './engine/url-pattern.js';

/** Oathkeeper's list (rule/validator.go). */
export const RULE_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'HEAD', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT'];
export const MAX_RULE_ID_LENGTH = 190;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Bounds the work one pattern costs at compile time; real rule URLs are far shorter. */
const MAX_URL_PATTERN_LENGTH = 4096;

/** A rule as written: optional members may be absent, handler configs may be `null` (Oathkeeper's own output). */
interface RuleInput {
  id: string;
  version?: string;
  description?: string;
  match: { methods: string[]; url: string };
  authenticators: HandlerInput[];
  authorizer: HandlerInput;
  mutators: HandlerInput[];
  errors?: HandlerInput[] | null;
  upstream?: { url?: string; strip_path?: string; preserve_host?: boolean };
}

interface HandlerInput {
  handler: string;
  config?: Record<string, unknown> | null;
}

const HANDLER = {
  type: 'object',
  required: ['handler'],
  additionalProperties: false,
  properties: {
    handler: { type: 'string', minLength: 1, maxLength: 64 },
    config: { type: 'object', nullable: true, required: [] },
  },
} as const;

const RULE_SCHEMA: JSONSchemaType<RuleInput> = {
  type: 'object',
  required: ['id', 'match', 'authenticators', 'authorizer', 'mutators'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: MAX_RULE_ID_LENGTH },
    version: { type: 'string', nullable: true, maxLength: 64 },
    description: { type: 'string', nullable: true, maxLength: 4096 },
    match: {
      type: 'object',
      required: ['methods', 'url'],
      additionalProperties: false,
      properties: {
        methods: { type: 'array', minItems: 1, maxItems: RULE_METHODS.length, items: { type: 'string' } },
        url: { type: 'string', minLength: 1, maxLength: MAX_URL_PATTERN_LENGTH },
      },
    },
    authenticators: { type: 'array', minItems: 1, maxItems: 32, items: HANDLER },
    authorizer: HANDLER,
    mutators: { type: 'array', minItems: 1, maxItems: 32, items: HANDLER },
    errors: { type: 'array', nullable: true, maxItems: 32, items: HANDLER },
    upstream: {
      type: 'object',
      nullable: true,
      required: [],
      additionalProperties: false,
      properties: {
        url: { type: 'string', nullable: true, maxLength: 2048 },
        strip_path: { type: 'string', nullable: true, maxLength: 2048 },
        preserve_host: { type: 'boolean', nullable: true },
      },
    },
  },
};

const validateShape = new Ajv({ allErrors: true, strict: true, logger: false }).compile(RULE_SCHEMA);

export type RuleReading =
  | { readonly rule: AccessRule; readonly problems?: undefined; readonly deferred: readonly RuleProblem[] }
  | { readonly rule?: undefined; readonly problems: readonly RuleProblem[] };

/**
 * Checks a rule as written and returns it with Oathkeeper's defaults filled in (`description` and
 * `upstream.url` empty, `preserve_host` false, no error handlers), or every problem found: the shape
 * (unknown members refused at every level but inside handler configs), the id, the methods, the URL
 * pattern under `strategy`, the upstream URL, then each registered validator (handler names and
 * configurations are theirs to judge). Only deferred problems: the rule, with them beside it.
 */
export function readRule(input: unknown, strategy: MatchingStrategy, validators: readonly RuleValidator[]): RuleReading {
  if (!validateShape(input)) return { problems: (validateShape.errors ?? []).map(shapeProblem) };
  const problems: RuleProblem[] = [];
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(input.id) || input.id.trim() !== input.id) {
    problems.push({ path: 'id', message: 'must not hold control or invisible characters, nor start or end with spaces' });
  } else if (input.id.normalize('NFC') !== input.id || normalizeIdentifier(input.id) === undefined) {
    // Ids name rules in logs, metrics, readiness and the ambiguous error: two that read alike must be the same bytes.
    problems.push({
      path: 'id',
      message: 'must be NFC and hold no look-alike characters (compatibility forms such as full-width letters)',
    });
  }
  if (input.description !== undefined && CONTROL_CHARACTERS.test(input.description)) {
    problems.push({ path: 'description', message: 'must not hold control characters other than tab and line breaks' });
  }
  const methods = new Set<string>();
  input.match.methods.forEach((method, index) => {
    const upper = method.toUpperCase();
    if (!RULE_METHODS.includes(upper))
      problems.push({ path: `match.methods.${index}`, message: `must be one of ${RULE_METHODS.join(', ')}` });
    else if (methods.has(upper)) problems.push({ path: `match.methods.${index}`, message: 'is listed twice' });
    methods.add(upper);
  });
  problems.push(...urlPatternProblems(input.match.url, strategy));
  const upstreamUrl = input.upstream?.url ?? '';
  if (upstreamUrl !== '' && !isHttpUrl(upstreamUrl)) {
    problems.push({ path: 'upstream.url', message: 'must be an absolute http or https URL without credentials, query or fragment' });
  }
  if (problems.length > 0) return { problems };
  const rule = normalise(input);
  for (const validate of validators) problems.push(...validate(rule));
  return problems.some((problem) => problem.deferred !== true) ? { problems } : { rule, deferred: problems };
}

function normalise(input: RuleInput): AccessRule {
  const upstream = input.upstream ?? {};
  return {
    id: input.id,
    ...(input.version === undefined || input.version === null ? {} : { version: input.version }),
    description: input.description ?? '',
    match: { methods: [...input.match.methods], url: input.match.url },
    authenticators: input.authenticators.map(handler),
    authorizer: handler(input.authorizer),
    mutators: input.mutators.map(handler),
    errors: (input.errors ?? []).map(handler),
    upstream: {
      url: upstream.url ?? '',
      ...(upstream.strip_path === undefined || upstream.strip_path === null ? {} : { strip_path: upstream.strip_path }),
      preserve_host: upstream.preserve_host ?? false,
    },
  };
}

function handler(input: HandlerInput): RuleHandler {
  return input.config === undefined || input.config === null
    ? { handler: input.handler }
    : { handler: input.handler, config: input.config };
}

function urlPatternProblems(url: string, strategy: MatchingStrategy): RuleProblem[] {
  try {
    compileUrlPattern(url, strategy);
  } catch (error) {
    if (error instanceof UrlPatternError) return [{ path: 'match.url', message: error.message }];
    throw error;
  }
  const literalPrefix = url.split('<', 1)[0]!;
  // The query and fragment never take part in matching, so a literal one would never match.
  if (/[?#]/.test(literalPrefix)) return [{ path: 'match.url', message: 'is matched without query and fragment; remove them' }];
  if (literalPrefix === url && !/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i.test(url)) {
    return [{ path: 'match.url', message: 'must be scheme://host/path, with expressions between < and >' }];
  }
  return [];
}

function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  );
}

function shapeProblem(error: ErrorObject): RuleProblem {
  const path = error.instancePath.split('/').slice(1).join('.');
  if (error.keyword === 'additionalProperties') {
    const member = (error.params as { additionalProperty: string }).additionalProperty;
    return { path: path === '' ? member : `${path}.${member}`, message: 'is not a known member' };
  }
  if (error.keyword === 'required') {
    const member = (error.params as { missingProperty: string }).missingProperty;
    return { path: path === '' ? member : `${path}.${member}`, message: 'is required' };
  }
  return { path, message: error.message ?? 'is invalid' };
}
