import { describe, expect, it } from 'vitest';
import type { PipelineSettings } from '../../config/app-config.js';
import { statusOf } from '../../common/errors/error-kind.js';
import { DecisionsError, DecisionsErrorCode } from '../decisions.errors.js';
import type { AuthenticationSession, JudgedRequest } from './authentication-session.js';
import type { DecisionPorts } from './decision-ports.js';
import { DecisionPipeline, type PipelineRule } from './decision-pipeline.js';

const SETTINGS: PipelineSettings = { authenticators: {}, authorizers: {}, mutators: {}, errors: {}, errorFallback: ['json'] };
const OWN = 'http://latchkey.test';

function request(headers: Record<string, string> = {}, url = 'http://app.test/api/42'): JudgedRequest {
  return {
    method: 'GET',
    url: new URL(url),
    headers,
    remoteAddress: '10.0.0.5',
    readCookies: () =>
      Object.fromEntries(
        (headers['cookie'] ?? '')
          .split(';')
          .filter((part) => part.includes('='))
          .map((part) => part.trim().split('=') as [string, string]),
      ),
  };
}

function ports(overrides: Partial<DecisionPorts> = {}): DecisionPorts & { readonly state: { signed: number } } {
  const state = { signed: 0 };
  const base: DecisionPorts = {
    issuer: OWN,
    isOwnUrl: (url) => url.startsWith(OWN),
    session: (token) => Promise.resolve(token === 'good' ? { identity: { id: 'id-1', traits: { email: 'a@b.c' } } } : undefined),
    introspect: (token) =>
      Promise.resolve(
        token === 'at'
          ? {
              active: true,
              scope: 'read write',
              client_id: 'c1',
              sub: 'user-1',
              exp: 0,
              iat: 0,
              aud: ['api'],
              iss: OWN,
              token_type: 'access_token',
              ext: { tier: 'gold' },
            }
          : { active: false },
      ),
    authenticateClient: (id, secret) =>
      Promise.resolve(
        id === 'c1' && secret === 's3cret' ? { clientId: 'c1', grantTypes: ['client_credentials'], scope: ['read'] } : undefined,
      ),
    checkTuple: (namespace, object, relation, subject) =>
      Promise.resolve(`${namespace}:${object}#${relation}@${subject}` === 'docs:42#view@id-1'),
    policyAllowed: (flavor, input) =>
      Promise.resolve(flavor === 'exact' && input.action === 'get' && input.resource === 'res:42' && input.subject === 'id-1'),
    signIdToken: (claims) => {
      state.signed += 1;
      return Promise.resolve(`jwt.${String(claims['sub'])}.${state.signed}`);
    },
    verifyJwt: () => Promise.reject(new Error('bad')),
    forward: () => Promise.reject(new Error('no network')),
    postJson: () => Promise.reject(new Error('no network')),
    postForm: () => Promise.reject(new Error('no network')),
    ...overrides,
  };
  return Object.assign(base, { state });
}

function rule(parts: Partial<PipelineRule>): PipelineRule {
  return { id: 'r1', authenticators: [{ handler: 'noop' }], authorizer: { handler: 'allow' }, mutators: [{ handler: 'noop' }], ...parts };
}

const pipeline = new DecisionPipeline(SETTINGS, (url) => url.startsWith(OWN));

function decide(parts: Partial<PipelineRule>, req = request(), fakes = ports()): AuthenticationSession | Promise<AuthenticationSession> {
  const compiled = pipeline.compile(rule(parts));
  expect(compiled.problems).toEqual([]);
  return pipeline.decide(compiled, req, ['42'], fakes);
}

/** What a decision failed with, thrown at once or rejected; undefined when it allowed. */
async function rejectionOf(decide: () => AuthenticationSession | Promise<AuthenticationSession>): Promise<unknown> {
  try {
    await decide();
    return undefined;
  } catch (caught) {
    return caught;
  }
}

async function failure(parts: Partial<PipelineRule>, req = request(), fakes = ports()): Promise<DecisionsError> {
  const error = await rejectionOf(() => decide(parts, req, fakes));
  expect(error).toBeInstanceOf(DecisionsError);
  return error as DecisionsError;
}

describe('DecisionPipeline', () => {
  it('noop → allow → noop allows with an empty subject', async () => {
    const session = await decide({});
    expect(session.Subject).toBe('');
  });

  it('decides at once, with no promise, when every step answers at once: noop, allow, a cached session', () => {
    const session = decide({});
    expect(session).not.toBeInstanceOf(Promise);
    const cached = ports({ session: (token) => (token === 'good' ? { identity: { id: 'id-1' } } : undefined) });
    const fromCache = decide({ authenticators: [{ handler: 'cookie_session' }] }, request({ cookie: 'service_session=good' }), cached);
    expect(fromCache).not.toBeInstanceOf(Promise);
    expect((fromCache as AuthenticationSession).Subject).toBe('id-1');
    const waited = decide({ authenticators: [{ handler: 'cookie_session' }] }, request({ cookie: 'service_session=good' }));
    expect(waited).toBeInstanceOf(Promise);
  });

  it('a refusal of a step that answered at once is thrown at once; one after a wait is a rejection', async () => {
    expect(() => decide({ authorizer: { handler: 'deny' } })).toThrow(DecisionsError);
    expect(() => decide({ authenticators: [{ handler: 'unauthorized' }] })).toThrow(DecisionsError);
    const waited = decide({ authenticators: [{ handler: 'cookie_session' }] }, request({ cookie: 'service_session=bad' }));
    expect(waited).toBeInstanceOf(Promise);
    await expect(waited).rejects.toBeInstanceOf(DecisionsError);
  });

  it('an authenticator found not responsible after a wait passes to the next one too', async () => {
    const waited = decide({ authenticators: [{ handler: 'oauth2_introspection' }, { handler: 'anonymous' }] });
    expect(waited).toBeInstanceOf(Promise);
    expect((await waited).Subject).toBe('anonymous');
  });

  it('anonymous sets its subject, and is not responsible when credentials are sent', async () => {
    expect((await decide({ authenticators: [{ handler: 'anonymous', config: { subject: 'guest' } }] })).Subject).toBe('guest');
    const error = await failure({ authenticators: [{ handler: 'anonymous' }] }, request({ authorization: 'Bearer x' }));
    expect(error.reason).toBe(DecisionsErrorCode.Unauthorized);
  });

  it('unauthorized always refuses; deny forbids', async () => {
    expect((await failure({ authenticators: [{ handler: 'unauthorized' }] })).reason).toBe(DecisionsErrorCode.Unauthorized);
    expect((await failure({ authorizer: { handler: 'deny' } })).reason).toBe(DecisionsErrorCode.Forbidden);
  });

  it('tries authenticators in order: one that is not responsible passes to the next', async () => {
    const session = await decide({ authenticators: [{ handler: 'bearer_token' }, { handler: 'anonymous' }] });
    expect(session.Subject).toBe('anonymous');
  });

  it('cookie_session reads our session in process: subject = identity id, extra = the session', async () => {
    const session = await decide({ authenticators: [{ handler: 'cookie_session' }] }, request({ cookie: 'service_session=good' }));
    expect(session.Subject).toBe('id-1');
    expect(session.Extra['identity']).toEqual({ id: 'id-1', traits: { email: 'a@b.c' } });
    expect((await failure({ authenticators: [{ handler: 'cookie_session' }] }, request({ cookie: 'service_session=bad' }))).reason).toBe(
      DecisionsErrorCode.Unauthorized,
    );
    expect(
      (
        await failure(
          { authenticators: [{ handler: 'cookie_session', config: { only: ['other'] } }] },
          request({ cookie: 'service_session=good' }),
        )
      ).reason,
    ).toBe(DecisionsErrorCode.Unauthorized);
  });

  it('bearer_token takes X-Session-Token or a bearer token', async () => {
    expect((await decide({ authenticators: [{ handler: 'bearer_token' }] }, request({ 'x-session-token': 'good' }))).Subject).toBe('id-1');
    expect((await decide({ authenticators: [{ handler: 'bearer_token' }] }, request({ authorization: 'Bearer good' }))).Subject).toBe(
      'id-1',
    );
  });

  it('oauth2_introspection: inactive → 401, scope under a strategy → 403, audience and issuer → 403', async () => {
    const handler = (config: Record<string, unknown>) => ({ authenticators: [{ handler: 'oauth2_introspection', config }] });
    const session = await decide(handler({ required_scope: ['read'], scope_strategy: 'exact' }), request({ authorization: 'Bearer at' }));
    expect(session.Subject).toBe('user-1');
    expect(session.Extra).toMatchObject({ tier: 'gold', client_id: 'c1' });
    expect((await failure(handler({}), request({ authorization: 'Bearer nope' }))).reason).toBe(DecisionsErrorCode.Unauthorized);
    expect(
      (await failure(handler({ required_scope: ['admin'], scope_strategy: 'hierarchic' }), request({ authorization: 'Bearer at' }))).reason,
    ).toBe(DecisionsErrorCode.Forbidden);
    expect((await failure(handler({ target_audience: ['other'] }), request({ authorization: 'Bearer at' }))).reason).toBe(
      DecisionsErrorCode.Forbidden,
    );
    expect((await failure(handler({ trusted_issuers: ['http://elsewhere'] }), request({ authorization: 'Bearer at' }))).reason).toBe(
      DecisionsErrorCode.Forbidden,
    );
  });

  it('oauth2_introspection with its cache introspects once, and another rule still applies its own scope checks', async () => {
    let calls = 0;
    const fakes = ports({
      introspect: () => {
        calls += 1;
        return Promise.resolve({
          active: true,
          scope: 'read',
          client_id: 'c1',
          sub: 'user-1',
          exp: 0,
          iat: 0,
          aud: [],
          iss: OWN,
          token_type: 'access_token',
          ext: {},
        });
      },
    });
    const cached = pipeline.compile(
      rule({ authenticators: [{ handler: 'oauth2_introspection', config: { cache: { enabled: true, ttl: '1m' } } }] }),
    );
    await pipeline.decide(cached, request({ authorization: 'Bearer at' }), [], fakes);
    await pipeline.decide(cached, request({ authorization: 'Bearer at' }), [], fakes);
    expect(calls).toBe(1);
    const stricter = pipeline.compile(
      rule({
        authenticators: [
          {
            handler: 'oauth2_introspection',
            config: { required_scope: ['admin'], scope_strategy: 'exact', cache: { enabled: true, ttl: '1m' } },
          },
        ],
      }),
    );
    const error = await rejectionOf(() => pipeline.decide(stricter, request({ authorization: 'Bearer at' }), [], fakes));
    expect((error as DecisionsError).reason).toBe(DecisionsErrorCode.Forbidden);
  });

  it('oauth2_client_credentials authenticates our client from Basic credentials', async () => {
    const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
    const parts = { authenticators: [{ handler: 'oauth2_client_credentials', config: { required_scope: ['read'] } }] };
    expect((await decide(parts, request(basic('c1', 's3cret')))).Subject).toBe('c1');
    expect((await failure(parts, request(basic('c1', 'wrong')))).reason).toBe(DecisionsErrorCode.Unauthorized);
  });

  it('keto_engine_acp_ory renders action, resource and flavor from the session and match', async () => {
    const authorizer = {
      handler: 'keto_engine_acp_ory',
      config: { required_action: 'get', required_resource: 'res:{{ printIndex .MatchContext.RegexpCaptureGroups 0 }}', flavor: 'exact' },
    };
    await decide({ authenticators: [{ handler: 'cookie_session' }], authorizer }, request({ cookie: 'service_session=good' }));
    const denied = await failure({ authenticators: [{ handler: 'anonymous' }], authorizer }, request());
    expect(denied.reason).toBe(DecisionsErrorCode.Forbidden);
  });

  it('relation_tuple checks the rendered tuple; a malformed one is a denial', async () => {
    const authorizer = {
      handler: 'relation_tuple',
      config: { namespace: 'docs', object: '{{ printIndex .MatchContext.RegexpCaptureGroups 0 }}', relation: 'view' },
    };
    await decide({ authenticators: [{ handler: 'cookie_session' }], authorizer }, request({ cookie: 'service_session=good' }));
    expect((await failure({ authorizer }, request())).reason).toBe(DecisionsErrorCode.Forbidden);
  });

  it('header and cookie mutators render templates; a line break cannot add a header', async () => {
    const session = await decide(
      {
        authenticators: [{ handler: 'cookie_session' }],
        mutators: [
          {
            handler: 'header',
            config: { headers: { 'X-User': '{{ print .Subject }}', 'X-Email': '{{ .Extra.identity.traits.email }}\r\nX-Evil: 1' } },
          },
          { handler: 'cookie', config: { cookies: { user: '{{ print .Subject }}' } } },
        ],
      },
      request({ cookie: 'service_session=good; keep=1' }),
    );
    expect(session.Header['X-User']).toBe('id-1');
    expect(session.Header['X-Email']).toBe('a@b.c X-Evil: 1');
    expect(session.Header['Cookie']).toBe('service_session=good; keep=1; user=id-1');
  });

  it('id_token signs once per subject and claims while the token is fresh', async () => {
    const fakes = ports();
    const parts = {
      authenticators: [{ handler: 'cookie_session' }],
      mutators: [{ handler: 'id_token', config: { claims: '{"aud": ["app"]}', ttl: '1m' } }],
    };
    const compiled = pipeline.compile(rule(parts));
    const first = await pipeline.decide(compiled, request({ cookie: 'service_session=good' }), [], fakes);
    const second = await pipeline.decide(compiled, request({ cookie: 'service_session=good' }), [], fakes);
    expect(first.Header['Authorization']).toBe('Bearer jwt.id-1.1');
    expect(second.Header['Authorization']).toBe(first.Header['Authorization']);
    expect(fakes.state.signed).toBe(1);
  });

  it('reports problems at compile time: unknown handler, bad config, bad template, disabled outbound handler', () => {
    const problems = pipeline.compile(
      rule({
        authenticators: [{ handler: 'magic' }],
        authorizer: { handler: 'remote_json', config: { remote: 'https://authz.example', payload: '{}' } },
        mutators: [
          { handler: 'header', config: { headers: { 'X-A': '{{ if .Subject }}' } } },
          { handler: 'id_token', config: { ttl: 'soon' } },
        ],
        errors: [{ handler: 'redirect', config: {} }],
      }),
    ).problems;
    expect(problems.map((problem) => problem.path)).toEqual([
      'authenticators.0.handler',
      'authorizer.handler',
      'mutators.0.config.headers.X-A',
      'mutators.1.config.ttl',
      'errors.0.config',
    ]);
  });

  it('a rule with problems answers 500 rule_misconfigured', async () => {
    const compiled = pipeline.compile(
      rule({ authorizer: { handler: 'remote_json', config: { remote: 'https://a.example', payload: '{}' } } }),
    );
    const error = await rejectionOf(() => pipeline.decide(compiled, request(), [], ports()));
    expect((error as DecisionsError).reason).toBe(DecisionsErrorCode.RuleMisconfigured);
  });

  it('an outbound handler runs once enabled by name, and its global config merges under the rule', async () => {
    const enabled = new DecisionPipeline(
      { ...SETTINGS, authorizers: { remote_json: { enabled: true, config: { remote: 'https://authz.example/check' } } } },
      (url) => url.startsWith(OWN),
    );
    const sent: unknown[] = [];
    const fakes = ports({
      postJson: (url, body) => {
        sent.push([url, body]);
        return Promise.resolve({ status: 200, body: Buffer.alloc(0) });
      },
    });
    const compiled = enabled.compile(
      rule({ authorizer: { handler: 'remote_json', config: { payload: '{"sub": {{ .Subject | quote }}}' } } }),
    );
    expect(compiled.problems).toEqual([]);
    await enabled.decide(compiled, request(), [], fakes);
    expect(sent).toEqual([['https://authz.example/check', { sub: '' }]]);
  });

  it('a remote authorizer that does not answer, or answers 5xx, is 503 + Retry-After (worth retrying); a 4xx stays 500', async () => {
    const enabled = new DecisionPipeline(
      { ...SETTINGS, authorizers: { remote_json: { enabled: true, config: { remote: 'https://authz.example/check' } } } },
      (url) => url.startsWith(OWN),
    );
    const compiled = enabled.compile(rule({ authorizer: { handler: 'remote_json', config: { payload: '{}' } } }));
    expect(compiled.problems).toEqual([]);
    const down = await rejectionOf(() => enabled.decide(compiled, request(), [], ports()));
    expect((down as DecisionsError).reason).toBe(DecisionsErrorCode.DependencyUnavailable);
    expect(statusOf((down as DecisionsError).kind)).toBe(503);
    expect((down as DecisionsError).headers?.['retry-after']).toMatch(/^[1-9]\d*$/);
    const answering = (status: number, headers: Record<string, string> = {}) =>
      rejectionOf(() =>
        enabled.decide(compiled, request(), [], ports({ postJson: () => Promise.resolve({ status, headers, body: Buffer.alloc(0) }) })),
      );
    for (const status of [500, 502, 503, 504]) {
      const failed = await answering(status);
      expect([(failed as DecisionsError).reason, (failed as DecisionsError).headers?.['retry-after']]).toEqual([
        DecisionsErrorCode.DependencyUnavailable,
        '1',
      ]);
    }
    // The dependency's own Retry-After is passed on, within 1 s – 60 s.
    expect(((await answering(503, { 'retry-after': '7' })) as DecisionsError).headers?.['retry-after']).toBe('7');
    expect(((await answering(503, { 'retry-after': '86400' })) as DecisionsError).headers?.['retry-after']).toBe('60');
    expect(((await answering(503, { 'retry-after': 'soon' })) as DecisionsError).headers?.['retry-after']).toBe('1');
    expect(((await answering(404)) as DecisionsError).reason).toBe(DecisionsErrorCode.HandlerFailed);
  });

  it('keto_engine_acp_ory is a problem under the glob matching strategy', () => {
    const glob = new DecisionPipeline(SETTINGS, (url) => url.startsWith(OWN), 'glob');
    const authorizer = { handler: 'keto_engine_acp_ory', config: { required_action: 'a', required_resource: 'r' } };
    expect(glob.compile(rule({ authorizer })).problems.map((problem) => problem.path)).toEqual(['authorizer.handler']);
  });

  it('refuses unknown handler names in DECISIONS_PIPELINE', () => {
    expect(() => new DecisionPipeline({ ...SETTINGS, mutators: { nope: {} } }, () => false)).toThrow();
  });

  it('error handlers: the first whose `when` holds answers, else the fallback json', () => {
    const compiled = pipeline.compile(
      rule({
        errors: [
          {
            handler: 'redirect',
            config: { to: 'https://login.example/', when: [{ error: ['unauthorized'], request: { header: { accept: ['text/html'] } } }] },
          },
          {
            handler: 'www_authenticate',
            config: { realm: 'api', when: [{ error: ['unauthorized'], request: { remote_ip: { match: ['10.0.0.0/8'] } } }] },
          },
          { handler: 'json', config: { when: [{ error: ['forbidden'] }] } },
        ],
      }),
    );
    expect(compiled.problems).toEqual([]);
    const html = request({ accept: 'text/html,application/xhtml+xml' });
    expect(pipeline.handleError(compiled, DecisionsError.unauthorized(), html)).toEqual({
      type: 'redirect',
      status: 302,
      location: 'https://login.example/',
    });
    expect(pipeline.handleError(compiled, DecisionsError.unauthorized(), request()).type).toBe('www_authenticate');
    expect(pipeline.handleError(compiled, DecisionsError.forbidden(), html).type).toBe('json');
    expect(pipeline.handleError(compiled, DecisionsError.failed('x'), html).type).toBe('json');
  });
});
