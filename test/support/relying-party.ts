import { createServer, type Server } from 'node:http';
import * as oidc from 'openid-client';

/** What the relying party got back from one authorization. */
export interface RelyingPartyResult {
  readonly claims: Record<string, unknown>;
  readonly userinfo: Record<string, unknown>;
  readonly error: string | undefined;
}

/**
 * A tiny relying party on 127.0.0.1 (another site than the provider) built on panva's openid-client:
 * `/start` sends the browser to the authorization endpoint (code + PKCE, state, nonce; `?prompt=` and
 * `?login_hint=` are passed on), `/cb` redeems
 * the code, verifies the ID token, reads /userinfo and shows both. Every result is kept in `results`.
 */
export class RelyingParty {
  readonly results: RelyingPartyResult[] = [];
  origin = '';
  private server: Server | undefined;
  private readonly pending = new Map<string, { verifier: string; nonce: string }>();
  private client: { id: string; secret: string } | undefined;

  constructor(
    private readonly issuer: string,
    private readonly scope: string,
  ) {}

  /** The client registered for `redirectUri` (known only once listening). */
  useClient(id: string, secret: string): void {
    this.client = { id, secret };
  }

  get redirectUri(): string {
    return `${this.origin}/cb`;
  }

  /** Listens on a free loopback port; `origin` is known before the client is registered. */
  async listen(): Promise<void> {
    this.server = createServer((request, response) => {
      this.answer(new URL(request.url ?? '/', this.origin))
        .then(({ status, location, body }) => {
          if (location !== undefined) response.writeHead(status, { location }).end();
          else response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
        })
        .catch((error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)));
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.origin = `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  private configuration(): Promise<oidc.Configuration> {
    if (this.client === undefined) throw new Error('no client registered yet');
    return oidc.discovery(new URL(this.issuer), this.client.id, undefined, oidc.ClientSecretBasic(this.client.secret), {
      execute: [oidc.allowInsecureRequests],
    });
  }

  private async answer(url: URL): Promise<{ status: number; location?: string; body?: string }> {
    const config = await this.configuration();
    if (url.pathname === '/start') {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      this.pending.set(state, { verifier, nonce });
      const location = oidc.buildAuthorizationUrl(config, {
        redirect_uri: this.redirectUri,
        scope: this.scope,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(url.searchParams.has('prompt') ? { prompt: url.searchParams.get('prompt')! } : {}),
        ...(url.searchParams.has('login_hint') ? { login_hint: url.searchParams.get('login_hint')! } : {}),
      });
      return { status: 302, location: location.href };
    }
    if (url.pathname === '/cb') {
      const error = url.searchParams.get('error');
      if (error !== null) {
        this.results.push({ claims: {}, userinfo: {}, error });
        return { status: 200, body: `<!doctype html><title>Refused</title><h1 id="error">${error}</h1>` };
      }
      const state = url.searchParams.get('state') ?? '';
      const expected = this.pending.get(state);
      if (expected === undefined) return { status: 400, body: 'unknown state' };
      this.pending.delete(state);
      const tokens = await oidc.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: expected.verifier,
        expectedState: state,
        expectedNonce: expected.nonce,
      });
      const claims = tokens.claims()!;
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      this.results.push({ claims: { ...claims }, userinfo: { ...userinfo }, error: undefined });
      return {
        status: 200,
        body: `<!doctype html><title>Signed in</title><h1 id="signed-in">Signed in</h1><pre>${JSON.stringify(userinfo).replace(/</g, '&lt;')}</pre>`,
      };
    }
    return { status: 404, body: 'not found' };
  }
}
