import { sha256Base64url } from '../common/crypto/digest.js';
import { Injectable } from '@nestjs/common';
import { createLocalJWKSet, exportJWK, jwtVerify, SignJWT, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';
import { TtlCache } from '../common/cache/ttl-cache.js';
import { OutboundHttp } from '../common/http/outbound-http.js';
import type { HttpConfig, UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { KeysService, type SerializedJwks } from '../keys/index.js';
import { ClientAuthenticator, IntrospectionService } from '../oauth/index.js';
import { AcpDecisionsService } from '../policies/index.js';
import { SessionsService, type CachedWhoami } from '../self-service/index.js';
import { TuplesService } from '../tuples/index.js';
import { DecisionsError } from './decisions.errors.js';
import type { AuthenticatedClient, DecisionPorts, OutboundAnswer, SessionDocument, TokenIntrospection } from './pipeline/decision-ports.js';
import { unexpectedAnswer } from './pipeline/outbound-answer.js';

/** The key set the id_token mutator signs with, created at first start; its public keys at the listeners' JWKS. */
export const ID_TOKEN_MUTATOR_SET = 'decisions.id-token';

/** Remote key sets are kept this long, as Oathkeeper keeps fetched credentials. */
const REMOTE_JWKS_TTL_MS = 30_000;
/**
 * A failed fetch is answered again for this long without fetching: otherwise every request carrying
 * a token fetches a failing URL anew, which multiplies our traffic onto the JWKS host while it
 * struggles and adds its timeout to every request. Short, so a host that recovers is used again soon.
 */
const REMOTE_JWKS_FAILURE_TTL_MS = 5_000;

/**
 * The pipeline's ports wired to the other contexts' exported services, in process (sessions, our
 * introspection and client authentication, tuples, ACP policies, keys), and to the outbound client
 * for URLs that are not ours.
 */
@Injectable()
export class DecisionPortsAdapter implements DecisionPorts {
  readonly issuer: string;
  private readonly ownOrigins: ReadonlySet<string>;
  private readonly remoteKeySets = new TtlCache<string, Promise<JWTVerifyGetKey>>({ ttlMs: REMOTE_JWKS_TTL_MS, maxEntries: 1000 });
  private readonly remoteKeyFailures = new TtlCache<string, Promise<JWTVerifyGetKey>>({
    ttlMs: REMOTE_JWKS_FAILURE_TTL_MS,
    maxEntries: 1000,
  });
  private ownKeySet: { readonly etag: string; readonly keys: JWTVerifyGetKey } | undefined;
  private mutatorJwksCache: { readonly source: unknown; readonly jwks: SerializedJwks } | undefined;
  private readonly parsedSessions = new WeakMap<CachedWhoami, SessionDocument>();

  constructor(
    @InjectConfig('urls') urls: UrlsConfig,
    @InjectConfig('http') http: HttpConfig,
    private readonly sessions: SessionsService,
    private readonly introspection: IntrospectionService,
    private readonly clientAuthenticator: ClientAuthenticator,
    private readonly tuples: TuplesService,
    private readonly policies: AcpDecisionsService,
    private readonly keys: KeysService,
    private readonly outbound: OutboundHttp,
  ) {
    this.issuer = urls.issuer;
    const origins = new Set([new URL(urls.issuer).origin]);
    const ports = [http.publicPort, http.adminPort, http.proxyPort].filter((port) => port !== undefined);
    for (const host of new Set(['localhost', '127.0.0.1', '[::1]', http.host])) {
      for (const port of ports) origins.add(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`);
    }
    this.ownOrigins = origins;
  }

  isOwnUrl(url: string): boolean {
    try {
      return this.ownOrigins.has(new URL(url).origin);
    } catch {
      return false;
    }
  }

  session(token: string): SessionDocument | undefined | Promise<SessionDocument | undefined> {
    const found = this.sessions.whoami(token);
    return found instanceof Promise ? found.then((answer) => this.parsedSession(answer)) : this.parsedSession(found);
  }

  private parsedSession(found: CachedWhoami | undefined): SessionDocument | undefined {
    if (found === undefined) return undefined;
    // A whoami cache hit returns the same entry object: its parsed form is kept beside it (and goes with it).
    let parsed = this.parsedSessions.get(found);
    if (parsed === undefined) {
      parsed = JSON.parse(found.body) as SessionDocument;
      this.parsedSessions.set(found, parsed);
    }
    return parsed;
  }

  introspect(token: string): Promise<TokenIntrospection> {
    // The gateway judges with the service's own authority, as the admin API does: any audience.
    return this.introspection.introspect(token, [], { kind: 'admin' });
  }

  async authenticateClient(clientId: string, secret: string): Promise<AuthenticatedClient | undefined> {
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    try {
      const client = await this.clientAuthenticator.authenticate(basic, {});
      return { clientId: client.id, grantTypes: client.grantTypes, scope: client.scope.split(' ').filter((scope) => scope !== '') };
    } catch (error) {
      if (error instanceof AppError && error.kind !== ErrorKind.Internal && error.kind !== ErrorKind.Unavailable) return undefined;
      throw error;
    }
  }

  checkTuple(namespace: string, object: string, relation: string, subject: string): boolean | Promise<boolean> {
    return this.tuples.check({ namespace, object, relation, subject } as Parameters<TuplesService['check']>[0]);
  }

  policyAllowed(
    flavor: string,
    request: { action: string; resource: string; subject: string; context: Record<string, unknown> },
  ): boolean | Promise<boolean> {
    return this.policies.allowed(flavor as Parameters<AcpDecisionsService['allowed']>[0], request);
  }

  async signIdToken(claims: Readonly<Record<string, unknown>>): Promise<string> {
    const key = await this.keys.signingKey(ID_TOKEN_MUTATOR_SET);
    return new SignJWT({ ...claims }).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.key);
  }

  /** The mutator's public keys as a JWKS document, serialised once per key change. */
  /** Serialised (and its ETag computed) once per key change: the key cache hands back the same array until then. */
  async mutatorJwks(): Promise<SerializedJwks> {
    const keys = await this.keys.verificationKeys(ID_TOKEN_MUTATOR_SET);
    if (this.mutatorJwksCache?.source === keys) return this.mutatorJwksCache.jwks;
    const members = await Promise.all(keys.map(async (key) => ({ ...(await exportJWK(key.key)), kid: key.kid, alg: key.alg, use: 'sig' })));
    const body = JSON.stringify({ keys: members });
    const jwks = { body, etag: `"${sha256Base64url(body)}"` };
    this.mutatorJwksCache = { source: keys, jwks };
    return jwks;
  }

  async verifyJwt(
    token: string,
    options: { jwksUrls: readonly string[]; algorithms: readonly string[] },
  ): Promise<Record<string, unknown>> {
    const keySets =
      options.jwksUrls.length === 0 ? [await this.ownKeys()] : await Promise.all(options.jwksUrls.map((url) => this.remoteKeys(url)));
    let lastError: unknown;
    for (const keys of keySets) {
      try {
        const { payload } = await jwtVerify(token, keys, { algorithms: [...options.algorithms] });
        return payload as Record<string, unknown>;
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }

  async forward(url: string, method: string, headers: Readonly<Record<string, string>>): Promise<OutboundAnswer> {
    return this.outbound.forward(url, method, { headers });
  }

  async postJson(url: string, body: unknown, headers: Readonly<Record<string, string>>): Promise<OutboundAnswer> {
    return this.outbound.postJson(url, body, { headers });
  }

  async postForm(url: string, form: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>>): Promise<OutboundAnswer> {
    return this.outbound.postForm(url, form, { headers });
  }

  /** Our published keys (the public JWKS) plus the id_token mutator's own. */
  private async ownKeys(): Promise<JWTVerifyGetKey> {
    const published = await this.keys.publicJwks();
    const mutator = (await this.mutatorJwks()).body;
    const etag = `${published.etag}|${mutator}`;
    if (this.ownKeySet?.etag === etag) return this.ownKeySet.keys;
    const set: JSONWebKeySet = {
      keys: [...(JSON.parse(published.body) as JSONWebKeySet).keys, ...(JSON.parse(mutator) as JSONWebKeySet).keys],
    };
    const keys = createLocalJWKSet(set);
    this.ownKeySet = { etag, keys };
    return keys;
  }

  /**
   * One fetch per URL at a time: on a cache miss under load every request would otherwise fetch the
   * same key set at once. A failed fetch leaves the key-set cache and is answered again, with the same
   * error (503 `dependency_unavailable` when unreachable), for REMOTE_JWKS_FAILURE_TTL_MS.
   */
  private remoteKeys(url: string): Promise<JWTVerifyGetKey> {
    const cached = this.remoteKeySets.get(url) ?? this.remoteKeyFailures.get(url);
    if (cached !== undefined) return cached;
    const loading = this.fetchRemoteKeys(url);
    this.remoteKeySets.set(url, loading);
    loading.catch(() => {
      if (this.remoteKeySets.get(url) === loading) this.remoteKeySets.delete(url);
      this.remoteKeyFailures.set(url, loading);
    });
    return loading;
  }

  private async fetchRemoteKeys(url: string): Promise<JWTVerifyGetKey> {
    let answer: OutboundAnswer;
    try {
      answer = await this.outbound.get(url);
    } catch (error) {
      throw DecisionsError.unreachable('A JWKS URL could not be fetched.', error);
    }
    if (answer.status !== 200) throw unexpectedAnswer(answer, 'A JWKS URL');
    let keys: JWTVerifyGetKey;
    try {
      keys = createLocalJWKSet(JSON.parse(answer.body.toString('utf8')) as JSONWebKeySet);
    } catch (error) {
      throw DecisionsError.failed('A JWKS URL did not answer with a key set.', error);
    }
    return keys;
  }
}
