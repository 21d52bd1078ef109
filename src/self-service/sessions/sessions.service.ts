import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { SecretsConfig, SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import {
  IdentitiesError,
  IdentitiesErrorCode,
  IdentitiesService,
  type IdentityRecord,
  type IdentityResponseDto,
} from '../../identities/index.js';
import { setCookie, type SelfServiceRequest } from '../flows/self-service-request.js';
import { SelfServiceError } from '../self-service.errors.js';
import { SESSION_COOKIE } from '../self-service-cookies.js';
import { SessionEntity } from './entities/session.entity.js';
import { SessionCache, type CachedWhoami } from './session-cache.js';
import { toSessionResponse, type SessionResponse } from './session.mapper.js';
import { isLogoutToken, logoutToken, newSessionToken, tokenHash } from './session-token.js';
import { SessionsRepository } from './sessions.repository.js';

/** A valid session presented by a request, with the token it was presented with. */
export interface ActiveSession {
  readonly session: SessionEntity;
  readonly token: string;
  readonly tokenHash: string;
}

/** A session just issued: the token leaves the service here, once. */
export interface IssuedSession {
  readonly session: SessionEntity;
  readonly token: string;
}

/**
 * Self-service sessions: issue (login, registration, recovery), look up from a request, re-authenticate
 * (`refresh`), revoke (logout), the session cookie, and the wire shape with the identity. Tokens are
 * stored only as SHA-256; every change is announced so whoami caches drop the session everywhere.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectConfig('secrets') private readonly secrets: SecretsConfig,
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly repository: SessionsRepository,
    private readonly identities: IdentitiesService,
    private readonly cache: SessionCache,
  ) {}

  /** A new session for an identity that just authenticated with `method`, valid for SESSION_LIFESPAN. */
  async issue(identityId: string, method: string): Promise<IssuedSession> {
    const now = new Date();
    const token = newSessionToken();
    const session = Object.assign(new SessionEntity(), {
      id: randomUUID(),
      tokenHash: tokenHash(token),
      identityId,
      active: true,
      issuedAt: now,
      authenticatedAt: now,
      expiresAt: this.expiry(now),
      authenticationMethods: [{ method, completed_at: now.toISOString() }],
      createdAt: now,
      updatedAt: now,
    });
    await this.repository.insert(session);
    return { session, token };
  }

  /** The valid session of a request (`X-Session-Token`, cookie, or bearer), or undefined. */
  async fromRequest(request: SelfServiceRequest): Promise<ActiveSession | undefined> {
    const token = request.sessionToken;
    return token === undefined ? undefined : this.byToken(token);
  }

  /** Like `fromRequest`, but 401 `session_inactive` without a valid session. */
  async require(request: SelfServiceRequest): Promise<ActiveSession> {
    const active = await this.fromRequest(request);
    if (active === undefined) throw SelfServiceError.noSession();
    return active;
  }

  async byToken(token: string): Promise<ActiveSession | undefined> {
    const hash = tokenHash(token);
    const session = await this.repository.findActive(hash, new Date());
    return session === null ? undefined : { session, token, tokenHash: hash };
  }

  /**
   * The whoami answer of a session token, serialized once: from the whoami cache when it can be, else
   * one indexed session lookup plus the identity (then cached). For `GET /sessions/whoami` and the
   * decision pipeline, which judges session cookies and tokens in process. Undefined without a valid
   * session.
   */
  whoami(token: string): CachedWhoami | Promise<CachedWhoami | undefined> {
    const hash = tokenHash(token);
    // A hit, nearly every call, is answered with no promise made.
    return this.cache.get(hash, Date.now()) ?? this.whoamiFromDatabase(hash);
  }

  private async whoamiFromDatabase(hash: string): Promise<CachedWhoami | undefined> {
    const generation = this.cache.generation();
    const session = await this.repository.findActive(hash, new Date());
    if (session === null) return undefined;
    const body = JSON.stringify(await this.toResponse(session));
    const entry = { body, identityId: session.identityId, expiresAtMs: session.expiresAt.getTime() };
    this.cache.set(hash, entry, generation);
    return entry;
  }

  /** Login with `refresh=true` by the session's own identity: `authenticated_at` = now, expiry extended. */
  async reauthenticate(active: ActiveSession, method: string): Promise<SessionEntity> {
    const now = new Date();
    const methods = [...active.session.authenticationMethods, { method, completed_at: now.toISOString() }];
    const expiresAt = this.expiry(now);
    await this.repository.reauthenticated(active.session.id, methods, now, expiresAt, this.cache.changed(active.tokenHash));
    return Object.assign(active.session, { authenticatedAt: now, authenticationMethods: methods, expiresAt, updatedAt: now });
  }

  /** Revokes the session of a token; false when it was unknown, expired or already revoked. */
  async revoke(token: string): Promise<boolean> {
    const hash = tokenHash(token);
    return this.repository.revoke(hash, new Date(), this.cache.changed(hash));
  }

  /** The identity's active sessions, newest authentication first. */
  listActive(identityId: string): Promise<SessionEntity[]> {
    return this.repository.findActiveOf(identityId, new Date());
  }

  /** Signs an identity out everywhere but in `keep` (the session asking); returns how many sessions ended. */
  async revokeOthers(keep: SessionEntity): Promise<number> {
    return this.repository.revokeOthers(keep.identityId, keep.id, new Date(), (hash) => this.cache.changed(hash));
  }

  /** The token that ends this session from a logout URL (see `logoutToken`). */
  logoutTokenOf(session: SessionEntity): string {
    return logoutToken(this.secrets.system[0]!, session.id);
  }

  /** Whether a logout URL's token is this session's. */
  isLogoutTokenOf(session: SessionEntity, token: string): boolean {
    return isLogoutToken(this.secrets.system, session.id, token);
  }

  /** Authenticated within SELFSERVICE_PRIVILEGED_SESSION_MAX_AGE: may change the password and protected traits. */
  isPrivileged(session: SessionEntity, now = new Date()): boolean {
    return now.getTime() - session.authenticatedAt.getTime() < this.selfService.privilegedSessionMaxAge * 1000;
  }

  /** The session on the wire, with its identity (loaded here). */
  async toResponse(session: SessionEntity): Promise<SessionResponse> {
    return toSessionResponse(session, await this.identityResponse(session.identityId));
  }

  /** The identity on the wire (as the admin API shows it), for sessions and settings flows. */
  async identityResponse(identityId: string): Promise<IdentityResponseDto> {
    // A session whose identity was deleted in between is no session (the cascade removes it next).
    const record = await this.identities.get(identityId).catch((error: unknown) => {
      throw error instanceof IdentitiesError && error.reason === IdentitiesErrorCode.NotFound ? SelfServiceError.noSession() : error;
    });
    return this.identityOnWire(record);
  }

  identityOnWire(record: IdentityRecord): IdentityResponseDto {
    return this.identities.toResponse(record);
  }

  /** Sets the `service_session` cookie (HttpOnly, SameSite, Secure per config), for SESSION_LIFESPAN. */
  setCookie(request: SelfServiceRequest, token: string): void {
    setCookie(request, { name: SESSION_COOKIE, value: token, maxAgeSeconds: this.selfService.sessionLifespan });
  }

  clearCookie(request: SelfServiceRequest): void {
    setCookie(request, { name: SESSION_COOKIE, value: null });
  }

  private expiry(from: Date): Date {
    return new Date(from.getTime() + this.selfService.sessionLifespan * 1000);
  }
}
