import { describe, expect, it, vi } from 'vitest';
import { ClientsError, type Client } from '../../clients/index.js';
import type { OAuth2Config, UrlsConfig } from '../../config/app-config.js';
import { ConsentError, type AuthorizationContext, type BrowserState, type ConsentGrant, type ConsentStep } from '../../consent/index.js';
import { clientFixture } from '../../../test/support/client-fixture.js';
import type { AuthorizedRequest } from '../tokens/authorized-request.js';
import { TokenError } from '../tokens/token.errors.js';
import { AuthorizeService, type AuthorizeOutcome } from './authorize.service.js';

const ISSUER = 'https://issuer.example';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const GRANT: ConsentGrant = {
  id: 'consent-1',
  subject: 'alice',
  forcedSubjectIdentifier: '',
  grantedScope: ['openid'],
  grantedAudience: [],
  accessTokenClaims: {},
  idTokenClaims: {},
  authTime: new Date(0),
  requestedAt: new Date(0),
  acr: '',
  amr: [],
  loginSessionId: 'sid-1',
};

interface Harness {
  readonly service: AuthorizeService;
  readonly advance: ReturnType<typeof vi.fn>;
  readonly issue: ReturnType<typeof vi.fn>;
  readonly verifyHint: ReturnType<typeof vi.fn>;
}

function harness(
  options: { client?: Client; step?: ConsentStep | Error; issued?: Record<string, string> | Error; hint?: unknown } = {},
): Harness {
  const client = options.client ?? clientFixture();
  const clients = {
    get: vi.fn(async (id: string) => {
      if (id !== client.id) throw ClientsError.notFound();
      return client;
    }),
  };
  const advance = vi.fn(async (_context: AuthorizationContext, _browser: BrowserState): Promise<ConsentStep> => {
    const step = options.step ?? { kind: 'granted', grant: GRANT, cookies: [] };
    if (step instanceof Error) throw step;
    return step;
  });
  const issue = vi.fn(async (_request: AuthorizedRequest) => {
    const issued = options.issued ?? { code: 'the-code' };
    if (issued instanceof Error) throw issued;
    return issued;
  });
  const verifyHint = vi.fn(async () => options.hint);
  const subjects = {
    forClient: (c: Client, subject: string, forced: string) => (c.subjectType === 'pairwise' ? forced || `pairwise-${subject}` : subject),
  };
  const service = new AuthorizeService(
    clients as never,
    { advance } as never,
    { issue } as never,
    { verify: verifyHint } as never,
    subjects as never,
    { resolve: async (params: unknown) => params } as never,
    { scopeStrategy: 'wildcard', privilegedScopes: [] } as unknown as OAuth2Config,
    { issuer: ISSUER } as UrlsConfig,
  );
  return { service, advance, issue, verifyHint };
}

function run(h: Harness, query: Record<string, string>, cookies: Record<string, string> = {}): Promise<AuthorizeOutcome> {
  return h.service.authorize({ rawQuery: new URLSearchParams(query).toString(), form: undefined, cookies });
}

const BASE = {
  client_id: 'client-1',
  response_type: 'code',
  state: 'state-123456',
  scope: 'openid',
  redirect_uri: 'https://client.example/cb',
};

function location(outcome: AuthorizeOutcome): URL {
  if (outcome.kind !== 'deliver' || outcome.delivery.kind !== 'redirect')
    throw new Error(`expected a redirect, got ${JSON.stringify(outcome)}`);
  return new URL(outcome.delivery.location);
}

function shown(outcome: AuthorizeOutcome): { code: string; status: string } {
  if (outcome.kind !== 'show_error') throw new Error(`expected an error shown here, got ${JSON.stringify(outcome)}`);
  return { code: outcome.error.code, status: outcome.error.kind };
}

describe('AuthorizeService', () => {
  describe('errors that never reach a client', () => {
    it('S03: shows invalid_client for an unknown client, and invalid_request without one', async () => {
      const h = harness();
      expect(shown(await run(h, { ...BASE, client_id: 'nobody' }))).toEqual({ code: 'invalid_client', status: 'unauthorized' });
      expect(shown(await run(h, { ...BASE, client_id: '' })).code).toBe('invalid_request');
      expect(h.advance).not.toHaveBeenCalled();
    });

    it('S01: shows invalid_request for a redirect_uri that is not registered', async () => {
      const h = harness();
      expect(shown(await run(h, { ...BASE, redirect_uri: 'https://evil.example/cb' })).code).toBe('invalid_request');
      expect(h.advance).not.toHaveBeenCalled();
    });

    it('shows invalid_request for an OpenID Connect request without redirect_uri, although the client has one', async () => {
      const h = harness();
      const { redirect_uri: _omitted, ...withoutRedirect } = BASE;
      expect(shown(await run(h, withoutRedirect)).code).toBe('invalid_request');
      expect(h.advance).not.toHaveBeenCalled();
      const plainOAuth = location(await run(h, { ...withoutRedirect, scope: 'offline' }));
      expect(plainOAuth.origin + plainOAuth.pathname).toBe('https://client.example/cb');
    });

    it('shows an error when client_id or redirect_uri is given twice', async () => {
      const h = harness();
      const twice = `${new URLSearchParams(BASE).toString()}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`;
      expect(shown(await h.service.authorize({ rawQuery: twice, form: undefined, cookies: {} })).code).toBe('invalid_request');
    });
  });

  describe('errors sent to the client', () => {
    it('S05: sends invalid_state to the redirect URI in the query for a code', async () => {
      const url = location(await run(harness(), { ...BASE, state: 'short' }));
      expect(url.origin + url.pathname).toBe('https://client.example/cb');
      expect(url.searchParams.get('error')).toBe('invalid_state');
      expect(url.searchParams.get('state')).toBe('short');
    });

    it('sends errors of token responses in the fragment', async () => {
      const url = location(await run(harness(), { ...BASE, response_type: 'id_token' }));
      const fragment = new URLSearchParams(url.hash.slice(1));
      expect(fragment.get('error')).toBe('invalid_request');
      expect(fragment.get('state')).toBe('state-123456');
      expect(url.search).toBe('');
    });

    it('sends errors with an auto-posting form for form_post', async () => {
      const outcome = await run(harness(), { ...BASE, scope: 'admin', response_mode: 'form_post' });
      if (outcome.kind !== 'deliver' || outcome.delivery.kind !== 'page') throw new Error('expected a page');
      expect(outcome.delivery.page.body).toContain('name="error" value="invalid_scope"');
      expect(outcome.delivery.page.body).toContain('name="state" value="state-123456"');
    });
  });

  it('hands the consent context the request and the browser, and follows its redirect with its cookies', async () => {
    const cookie = { name: 'oauth2_authentication_csrf', value: 'csrf', maxAgeSeconds: undefined };
    const h = harness({ step: { kind: 'redirect', location: 'https://login.example/?login_challenge=c', cookies: [cookie] } });
    const outcome = await run(h, { ...BASE, prompt: 'login', max_age: '60', login_hint: 'alice', consent_verifier: 'v2' }, { a: 'b' });
    expect(outcome).toEqual({
      kind: 'deliver',
      delivery: { kind: 'redirect', location: 'https://login.example/?login_challenge=c' },
      cookies: [cookie],
    });
    const [context, browser] = h.advance.mock.calls[0] as [AuthorizationContext, BrowserState];
    expect(context.requestUrl).toBe(
      `${ISSUER}/oauth2/auth?client_id=client-1&response_type=code&state=state-123456&scope=openid&redirect_uri=https%3A%2F%2Fclient.example%2Fcb&prompt=login&max_age=60&login_hint=alice`,
    );
    expect(context.redirectUri).toBe('https://client.example/cb');
    expect(context.requestedScope).toEqual(['openid']);
    expect([...context.prompt]).toEqual(['login']);
    expect(context.maxAgeSeconds).toBe(60);
    expect(context.oidcContext).toEqual({ login_hint: 'alice' });
    expect(context.hintMatches).toBeUndefined();
    expect(browser).toEqual({ cookies: { a: 'b' }, loginVerifier: undefined, consentVerifier: 'v2' });
    expect(h.issue).not.toHaveBeenCalled();
  });

  it('issues the response once consent is granted and delivers it with state', async () => {
    const h = harness();
    const url = location(await run(h, { ...BASE, code_challenge: CHALLENGE, code_challenge_method: 'S256', nonce: 'nonce-123456' }));
    expect(url.searchParams.get('code')).toBe('the-code');
    expect(url.searchParams.get('state')).toBe('state-123456');
    const request = h.issue.mock.calls[0]![0] as AuthorizedRequest;
    expect(request.redirectUri).toBe('https://client.example/cb');
    expect([...request.responseTypes]).toEqual(['code']);
    expect(request.codeChallenge).toBe(CHALLENGE);
    expect(request.nonce).toBe('nonce-123456');
    expect(request.grant).toBe(GRANT);
  });

  describe('consent errors', () => {
    it.each([
      ['login_required', ConsentError.loginRequired('no session')],
      ['consent_required', ConsentError.consentRequired('no consent')],
      ['access_denied', ConsentError.accessDenied('login')],
      ['invalid_request', ConsentError.invalidRequest('both verifiers')],
    ])('sends %s to the client', async (code, error) => {
      const url = location(await run(harness({ step: error }), BASE));
      expect(url.searchParams.get('error')).toBe(code);
      expect(url.searchParams.get('state')).toBe('state-123456');
    });

    it("sends a rejection with the app's own error, description and hint", async () => {
      const rejection = { error: 'no_way', errorDescription: 'Not today', errorHint: 'Ask later', errorDebug: 'secret', statusCode: 418 };
      const url = location(await run(harness({ step: ConsentError.rejected(rejection) }), BASE));
      expect(url.searchParams.get('error')).toBe('no_way');
      expect(url.searchParams.get('error_description')).toBe('Not today');
      expect(url.searchParams.get('error_hint')).toBe('Ask later');
      expect(url.searchParams.has('error_debug')).toBe(false);
    });

    it('S15: shows an expired request (401) and a CSRF failure (403) here instead', async () => {
      expect(shown(await run(harness({ step: ConsentError.expired('login') }), BASE))).toEqual({
        code: 'request_unauthorized',
        status: 'unauthorized',
      });
      expect(shown(await run(harness({ step: ConsentError.csrf('consent') }), BASE))).toEqual({
        code: 'request_forbidden',
        status: 'forbidden',
      });
    });

    it('treats admin-only consent errors and unknown failures as server errors', async () => {
      await expect(run(harness({ step: ConsentError.notFound('login') }), BASE)).rejects.toBeInstanceOf(ConsentError);
      await expect(run(harness({ step: new Error('boom') }), BASE)).rejects.toThrow('boom');
    });
  });

  it('sends a token-issuing refusal to the client with its code', async () => {
    const url = location(await run(harness({ issued: TokenError.invalidScope('openid not granted') }), BASE));
    expect(url.searchParams.get('error')).toBe('invalid_scope');
  });

  describe('id_token_hint', () => {
    it('refuses a hint that does not verify, or was issued to another client', async () => {
      expect(location(await run(harness({ hint: undefined }), { ...BASE, id_token_hint: 'x.y.z' })).searchParams.get('error')).toBe(
        'invalid_request',
      );
      const other = { sub: 'alice', aud: ['client-2'] };
      expect(location(await run(harness({ hint: other }), { ...BASE, id_token_hint: 'x.y.z' })).searchParams.get('error')).toBe(
        'invalid_request',
      );
    });

    it('passes the claims to the login app and matches the subject as accepted or as the client sees it', async () => {
      const hint = { sub: 'pairwise-alice', aud: 'client-1', iss: ISSUER };
      const h = harness({ client: clientFixture({ subjectType: 'pairwise' }), hint });
      await run(h, { ...BASE, id_token_hint: 'x.y.z' });
      const context = h.advance.mock.calls[0]![0] as AuthorizationContext;
      expect(context.oidcContext.id_token_hint_claims).toEqual(hint);
      expect(context.hintMatches?.('alice', '')).toBe(true);
      expect(context.hintMatches?.('pairwise-alice', '')).toBe(true);
      expect(context.hintMatches?.('bob', '')).toBe(false);
      expect(context.hintMatches?.('alice', 'forced')).toBe(false);
    });
  });
});
