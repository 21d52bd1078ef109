import { BlockList, isIP } from 'node:net';
import type { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';
import { headerOf, type JudgedRequest } from './authentication-session.js';
import { HandlerConfigError } from './handler-config.js';

/** How a failed decision is answered: the access family's error, a redirect, or a Basic challenge. */
export type ErrorOutcome =
  | { readonly type: 'json'; readonly error: AppError }
  | { readonly type: 'redirect'; readonly status: number; readonly location: string }
  | { readonly type: 'www_authenticate'; readonly realm: string; readonly error: AppError };

export interface PreparedErrorHandler {
  /** Undefined when its `when` conditions do not hold for this error and request. */
  handle(error: AppError, request: JudgedRequest): ErrorOutcome | undefined;
}

export interface ErrorHandlerDefinition {
  readonly schema: Record<string, unknown>;
  prepare(config: Record<string, unknown>, path: string): PreparedErrorHandler;
}

const ERROR_NAMES = ['unauthorized', 'forbidden', 'internal_server_error', 'not_found'] as const;

const WHEN_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    properties: {
      error: { type: 'array', items: { enum: ERROR_NAMES } },
      request: {
        type: 'object',
        additionalProperties: false,
        properties: {
          header: {
            type: 'object',
            additionalProperties: false,
            properties: {
              content_type: { type: 'array', items: { type: 'string' } },
              accept: { type: 'array', items: { type: 'string' } },
            },
          },
          remote_ip: {
            type: 'object',
            additionalProperties: false,
            properties: {
              match: { type: 'array', items: { type: 'string' } },
              respect_forwarded_for_header: { type: 'boolean', default: false },
            },
          },
        },
      },
    },
  },
  default: [],
};

interface When {
  readonly error?: readonly string[];
  readonly request?: {
    readonly header?: { readonly content_type?: readonly string[]; readonly accept?: readonly string[] };
    readonly remote_ip?: { readonly match?: readonly string[]; readonly respect_forwarded_for_header: boolean };
  };
}

type Condition = (error: AppError, request: JudgedRequest) => boolean;

/** `when`: the handler answers when any entry holds; an entry holds when all its parts do. Empty: always. */
function conditions(raw: readonly When[], path: string): Condition {
  const entries = raw.map((when, index) => entryCondition(when, `${path}.when.${index}`));
  return (error, request) => entries.length === 0 || entries.some((entry) => entry(error, request));
}

function entryCondition(when: When, path: string): Condition {
  const checks: Condition[] = [];
  if (when.error !== undefined) {
    const names = when.error;
    checks.push((error) => names.includes(errorName(error)));
  }
  const contentTypes = when.request?.header?.content_type;
  if (contentTypes !== undefined) {
    checks.push((_error, request) => {
      const type = (headerOf(request, 'content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
      return contentTypes.some((candidate) => candidate.toLowerCase() === type);
    });
  }
  const accepts = when.request?.header?.accept;
  if (accepts !== undefined) {
    checks.push((_error, request) => {
      const accepted = (headerOf(request, 'accept') ?? '').split(',').map((part) => part.split(';', 1)[0]!.trim().toLowerCase());
      return accepts.some((candidate) => accepted.includes(candidate.toLowerCase()));
    });
  }
  const remote = when.request?.remote_ip;
  if (remote?.match !== undefined) {
    const list = cidrBlockList(remote.match, `${path}.request.remote_ip.match`);
    const respect = remote.respect_forwarded_for_header;
    checks.push((_error, request) => {
      const addresses = [request.remoteAddress];
      if (respect) addresses.push(...(headerOf(request, 'x-forwarded-for') ?? '').split(',').map((part) => part.trim()));
      return addresses.some((address) => inBlockList(list, address));
    });
  }
  return (error, request) => checks.every((check) => check(error, request));
}

/** Oathkeeper's error names for `when.error`. */
function errorName(error: AppError): string {
  switch (error.kind) {
    case ErrorKind.Unauthorized:
      return 'unauthorized';
    case ErrorKind.Forbidden:
      return 'forbidden';
    case ErrorKind.NotFound:
      return 'not_found';
    default:
      return 'internal_server_error';
  }
}

export function cidrBlockList(cidrs: readonly string[], path: string): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/');
    const family = isIP(address ?? '');
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new HandlerConfigError(path, `"${cidr}" is not an address or CIDR range`);
    }
    list.addSubnet(address!, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** IPv4 peers may arrive IPv4-mapped (`::ffff:10.0.0.1`) on a dual-stack socket. */
export function inBlockList(list: BlockList, address: string): boolean {
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

const json: ErrorHandlerDefinition = {
  schema: { type: 'object', additionalProperties: false, properties: { verbose: { type: 'boolean', default: false }, when: WHEN_SCHEMA } },
  prepare: (config, path) => {
    const applies = conditions(config['when'] as When[], path);
    return { handle: (error, request) => (applies(error, request) ? { type: 'json', error } : undefined) };
  },
};

const redirect: ErrorHandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['to'],
    properties: { to: { type: 'string', pattern: '^(https?://|/)' }, code: { enum: [301, 302], default: 302 }, when: WHEN_SCHEMA },
  },
  prepare: (config, path) => {
    const applies = conditions(config['when'] as When[], path);
    const to = config['to'] as string;
    const status = config['code'] as number;
    return { handle: (error, request) => (applies(error, request) ? { type: 'redirect', status, location: to } : undefined) };
  },
};

const wwwAuthenticate: ErrorHandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: { realm: { type: 'string', pattern: '^[^"\\\\\\r\\n]*$', default: 'Please authenticate.' }, when: WHEN_SCHEMA },
  },
  prepare: (config, path) => {
    const applies = conditions(config['when'] as When[], path);
    const realm = config['realm'] as string;
    return { handle: (error, request) => (applies(error, request) ? { type: 'www_authenticate', realm, error } : undefined) };
  },
};

export const ERROR_HANDLERS: Readonly<Record<string, ErrorHandlerDefinition>> = {
  json,
  redirect,
  www_authenticate: wwwAuthenticate,
};
