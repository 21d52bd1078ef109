import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { CookieJar } from './cookie-jar.js';
import type { HttpResponse } from './http.js';

/** What POST /clients returns that the flows need. */
export interface RegisteredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly redirect_uris: string[];
}

/** Registers a client through the admin API (confidential, code + refresh, openid scopes unless overridden). */
export async function registerClient(app: TestApp, body: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const response = await app.admin.post<RegisteredClient>('/clients', {
    json: {
      redirect_uris: ['https://client.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'openid offline_access profile',
      token_endpoint_auth_method: 'client_secret_post',
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A PKCE pair (RFC 7636, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The path and query of an absolute URL of the service (the tests' issuer may not carry the real port). */
export function pathOf(url: string): string {
  if (url.startsWith('/')) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A query parameter of a URL (absolute or a path). */
export function queryParam(url: string, name: string): string | null {
  return new URL(url, 'http://x').searchParams.get(name);
}

/** The parameters of a redirect to the client: from the fragment when there is one, else the query. */
export function responseParams(location: string): URLSearchParams {
  const url = new URL(location);
  return url.hash !== '' ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
}

/**
 * A user agent on the public listener: keeps its cookies between requests (by hand; fetch keeps none),
 * never follows redirects, and talks to the admin API as the login and consent apps would.
 */
export class OAuthBrowser {
  readonly jar = new CookieJar();

  constructor(private readonly app: TestApp) {}

  /** GET on the public listener (absolute URLs of the service are reduced to their path and query). */
  async get(url: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const response = await this.app.public.get(pathOf(url), { headers: { ...this.jar.header(), ...headers } });
    this.jar.absorb(response.headers);
    return response;
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const response = await this.app.public.post(pathOf(url), { form, headers: { ...this.jar.header(), ...headers } });
    this.jar.absorb(response.headers);
    return response;
  }

  /** GET /oauth2/auth with the query; expects a 302 and returns its Location. */
  async authorize(query: Record<string, string>): Promise<string> {
    return this.redirectOf(await this.get(`/oauth2/auth?${new URLSearchParams(query).toString()}`));
  }

  /** Follows a `redirect_to` back to the service; expects a 302 and returns its Location. */
  async follow(url: string): Promise<string> {
    return this.redirectOf(await this.get(url));
  }

  redirectOf(response: HttpResponse): string {
    expect(response.status, response.text).toBe(302);
    const location = response.headers.get('location');
    expect(location).not.toBeNull();
    return location!;
  }

  /** The login app accepts: returns `redirect_to`. */
  async acceptLogin(loginLocation: string, body: Record<string, unknown> = { subject: 'alice' }): Promise<string> {
    return this.decide('login', 'accept', loginLocation, body);
  }

  async rejectLogin(loginLocation: string, body: Record<string, unknown> = {}): Promise<string> {
    return this.decide('login', 'reject', loginLocation, body);
  }

  /** The consent app accepts: returns `redirect_to`. */
  async acceptConsent(consentLocation: string, body: Record<string, unknown> = { grant_scope: ['openid'] }): Promise<string> {
    return this.decide('consent', 'accept', consentLocation, body);
  }

  async rejectConsent(consentLocation: string, body: Record<string, unknown> = {}): Promise<string> {
    return this.decide('consent', 'reject', consentLocation, body);
  }

  /** The whole hand-off: authorize, login accept, back, consent accept, back; returns the redirect to the client. */
  async completeFlow(
    query: Record<string, string>,
    login: Record<string, unknown> = { subject: 'alice' },
    consent: Record<string, unknown> = { grant_scope: (query['scope'] ?? '').split(' ').filter((s) => s !== '') },
  ): Promise<string> {
    const loginLocation = await this.authorize(query);
    const consentLocation = await this.follow(await this.acceptLogin(loginLocation, login));
    return this.follow(await this.acceptConsent(consentLocation, consent));
  }

  private async decide(
    step: 'login' | 'consent',
    decision: 'accept' | 'reject',
    location: string,
    body: Record<string, unknown>,
  ): Promise<string> {
    const challenge = queryParam(location, `${step}_challenge`);
    expect(challenge, `no ${step}_challenge in ${location}`).not.toBeNull();
    const response = await this.app.admin.put<{ redirect_to: string }>(
      `/oauth2/auth/requests/${step}/${decision}?${step}_challenge=${encodeURIComponent(challenge!)}`,
      { json: body },
    );
    expect(response.status, response.text).toBe(200);
    return response.body.redirect_to;
  }
}

/** Exchanges a code at the token endpoint with client_secret_post (and the PKCE verifier when given). */
export async function exchangeCode(
  app: TestApp,
  client: RegisteredClient,
  code: string,
  options: { redirectUri?: string; verifier?: string } = {},
): Promise<HttpResponse<Record<string, unknown>>> {
  return app.public.post('/oauth2/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: options.redirectUri ?? client.redirect_uris[0]!,
      client_id: client.client_id,
      ...(client.client_secret === undefined ? {} : { client_secret: client.client_secret }),
      ...(options.verifier === undefined ? {} : { code_verifier: options.verifier }),
    },
  });
}

/**
 * Signs `browser` in at `client` with an openid-only code flow (remembered by default, so a later
 * authorize at another client skips the login) and exchanges the code; returns the ID token.
 */
export async function signInForIdToken(
  app: TestApp,
  browser: OAuthBrowser,
  client: RegisteredClient,
  subject: string,
  options: { remember?: boolean; nonce?: string } = {},
): Promise<string> {
  const done = await browser.completeFlow(
    {
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: client.redirect_uris[0]!,
      scope: 'openid',
      state: 'state-0123456789',
      nonce: options.nonce ?? `nonce-${randomBytes(6).toString('hex')}`,
    },
    { subject, remember: options.remember ?? true, remember_for: 3600 },
    { grant_scope: ['openid'] },
  );
  const tokens = await exchangeCode(app, client, responseParams(done).get('code')!);
  expect(tokens.status, tokens.text).toBe(200);
  return tokens.body['id_token'] as string;
}
