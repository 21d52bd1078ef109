import { randomUUID } from 'node:crypto';
import { sha256Base64url } from '../../common/crypto/digest.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { headerOf } from './authentication-session.js';
import type { OutboundAnswer } from './decision-ports.js';
import { DecisionsError } from '../decisions.errors.js';
import { goDuration, HandlerConfigError, Schemas } from './handler-config.js';
import { noConfig, type HandlerDefinition } from './handler.js';
import { unexpectedAnswer } from './outbound-answer.js';
import { RETRY_SCHEMA, retryPolicy, withRetries, type RetryConfig } from './retry.js';
import { template, templateMap } from './templates.js';

const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

/** `header`: each header's value rendered from the session, sent upstream (or returned by /decisions). */
const header: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['headers'],
    properties: { headers: { type: 'object', propertyNames: { pattern: HEADER_NAME }, additionalProperties: { type: 'string' } } },
  },
  reachesOtherHost: () => false,
  prepare: (config, path) => {
    const headers = templateMap(config['headers'] as Record<string, string>, `${path}.headers`);
    return {
      run: (_request, session) => {
        for (const [name, value] of headers) session.Header[name] = stripLineBreaks(value.render(session));
      },
    };
  },
};

/** `cookie`: rendered cookies merged into one `Cookie` header, keeping the request's other cookies. */
const cookie: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['cookies'],
    properties: {
      cookies: { type: 'object', propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }, additionalProperties: { type: 'string' } },
    },
  },
  reachesOtherHost: () => false,
  prepare: (config, path) => {
    const cookies = templateMap(config['cookies'] as Record<string, string>, `${path}.cookies`);
    return {
      run: (request, session) => {
        const values = new Map<string, string>(
          Object.entries(request.readCookies()).filter((entry): entry is [string, string] => entry[1] !== undefined),
        );
        for (const [name, value] of cookies) values.set(name, value.render(session).replace(/[;\r\n]/g, ''));
        session.Header['Cookie'] = [...values].map(([name, value]) => `${name}=${value}`).join('; ');
      },
    };
  },
};

interface IdTokenConfig {
  readonly issuer_url?: string;
  readonly jwks_url?: string;
  readonly claims?: string;
  readonly ttl: string;
}

/**
 * `id_token`: a JWT for the upstream, signed with the mutator's own key set (generated at first
 * start, public keys at `/.well-known/jwks.json` of the admin and proxy listeners), sent as
 * `Authorization: Bearer`. As Oathkeeper, a token is reused for the same subject and claims until a
 * tenth of its lifetime is left.
 */
const idToken: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      issuer_url: Schemas.url,
      jwks_url: { type: 'string', minLength: 1 },
      claims: { type: 'string' },
      ttl: { type: 'string', default: '15m' },
    },
  },
  reachesOtherHost: () => false,
  prepare: (raw, path, isOwnUrl) => {
    const config = raw as unknown as IdTokenConfig;
    if (config.jwks_url !== undefined && !isOwnUrl(config.jwks_url)) {
      throw new HandlerConfigError(`${path}.jwks_url`, 'the id_token mutator signs with its own key set; jwks_url may only name it');
    }
    const ttlMs = goDuration(config.ttl, `${path}.ttl`);
    const claims = config.claims === undefined ? undefined : template(config.claims, `${path}.claims`);
    const cache = new TtlCache<string, { readonly jwt: string; readonly renewAtMs: number }>({
      ttlMs: Math.max(1, Math.floor(ttlMs * 0.9)),
      maxEntries: 10_000,
    });
    return {
      run: async (_request, session, ports) => {
        let extra: Record<string, unknown> = {};
        const rendered = claims?.render(session) ?? '';
        if (rendered.trim() !== '') {
          try {
            const parsed: unknown = JSON.parse(rendered);
            if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
            extra = parsed as Record<string, unknown>;
          } catch (error) {
            throw DecisionsError.failed('The id_token claims did not render as a JSON object.', error);
          }
        }
        const issuer = config.issuer_url ?? ports.issuer;
        const key = sha256Base64url(JSON.stringify([session.Subject, issuer, rendered]));
        const now = Date.now();
        const cached = cache.get(key);
        if (cached !== undefined && cached.renewAtMs > now) {
          session.Header['Authorization'] = `Bearer ${cached.jwt}`;
          return;
        }
        const iat = Math.floor(now / 1000);
        const jwt = await ports.signIdToken({
          ...extra,
          exp: iat + Math.floor(ttlMs / 1000),
          jti: randomUUID(),
          iat,
          iss: issuer,
          nbf: iat,
          sub: session.Subject,
        });
        cache.set(key, { jwt, renewAtMs: now + Math.floor(ttlMs * 0.9) });
        session.Header['Authorization'] = `Bearer ${jwt}`;
      },
    };
  },
};

interface HydratorConfig {
  readonly api: {
    readonly url: string;
    readonly auth?: { readonly basic?: { readonly username: string; readonly password: string } };
    readonly retry: RetryConfig;
  };
}

/**
 * `hydrator`: the session POSTed as JSON to `api.url`; a 200 answer with the same subject replaces
 * `extra` and `header`; 401 is a credential error; anything else fails the request.
 */
const hydrator: HandlerDefinition = {
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['api'],
    properties: {
      api: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: {
          url: Schemas.url,
          auth: {
            type: 'object',
            additionalProperties: false,
            properties: {
              basic: {
                type: 'object',
                additionalProperties: false,
                required: ['username', 'password'],
                properties: { username: { type: 'string' }, password: { type: 'string' } },
              },
            },
          },
          retry: RETRY_SCHEMA,
        },
      },
    },
  },
  reachesOtherHost: () => true,
  prepare: (raw, path) => {
    const config = raw as unknown as HydratorConfig;
    const retry = retryPolicy(config.api.retry, `${path}.api.retry`);
    const basic = config.api.auth?.basic;
    const headers: Record<string, string> =
      basic === undefined ? {} : { authorization: `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}` };
    return {
      run: async (request, session, ports) => {
        const forwarded = { ...headers };
        const accept = headerOf(request, 'accept');
        if (accept !== undefined) forwarded['x-forwarded-accept'] = accept;
        const body = {
          subject: session.Subject,
          extra: session.Extra,
          header: session.Header,
          match_context: { regexp_capture_groups: session.MatchContext.RegexpCaptureGroups, url: request.url.href },
        };
        let answer: OutboundAnswer;
        try {
          answer = await withRetries(retry, () => ports.postJson(config.api.url, body, forwarded));
        } catch (error) {
          throw DecisionsError.unreachable('The hydrator did not answer.', error);
        }
        if (answer.status === 401) throw DecisionsError.unauthorized();
        if (answer.status !== 200) throw unexpectedAnswer(answer, 'The hydrator');
        let hydrated: { subject?: unknown; extra?: unknown; header?: unknown };
        try {
          hydrated = JSON.parse(answer.body.toString('utf8')) as typeof hydrated;
        } catch (error) {
          throw DecisionsError.failed('The hydrator answered with invalid JSON.', error);
        }
        if (hydrated.subject !== session.Subject) throw DecisionsError.failed('The hydrator changed the subject.');
        if (hydrated.extra !== null && typeof hydrated.extra === 'object' && !Array.isArray(hydrated.extra))
          session.Extra = hydrated.extra as Record<string, unknown>;
        if (hydrated.header !== null && typeof hydrated.header === 'object' && !Array.isArray(hydrated.header)) {
          for (const [name, value] of Object.entries(hydrated.header as Record<string, unknown>)) {
            const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
            if (new RegExp(HEADER_NAME).test(name)) session.Header[name] = stripLineBreaks(text);
          }
        }
      },
    };
  },
};

/** A header value never carries a line break: a template cannot smuggle a second header upstream. */
function stripLineBreaks(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

export const MUTATORS: Readonly<Record<string, HandlerDefinition>> = {
  noop: noConfig(() => undefined),
  header,
  cookie,
  id_token: idToken,
  hydrator,
};
