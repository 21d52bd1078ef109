import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AdminTokenVerifiers, type AdminTokenVerifier } from '../../common/auth/admin-token-verifiers.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { sha256Base64url } from '../../common/crypto/digest.js';
import { type OAuth2Config } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { TokenLookup } from './token-lookup.js';

/** Answers are remembered this long: a revoked admin token may keep working for up to this long. */
const CACHE = { ttlMs: 5_000, maxEntries: 10_000 };

/**
 * Lets the admin API accept access tokens this service issued with the client_credentials grant and
 * the admin scope (OAUTH2_ADMIN_SCOPE), so that a first-party client can manage the service (seed:
 * "managing the service itself requires an OAuth 2.0 client"). Registered with AdminTokenVerifiers at
 * start (the admin guard lives in the plumbing and cannot depend on this context). Answers are cached
 * for a few seconds by the token's SHA-256, never beyond the token's expiry.
 */
@Injectable()
export class AdminScopeTokenVerifier implements AdminTokenVerifier, OnModuleInit {
  private readonly cache = new TtlCache<string, { readonly admin: boolean; readonly until: number }>(CACHE);

  constructor(
    private readonly lookup: TokenLookup,
    private readonly moduleRef: ModuleRef,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
  ) {}

  onModuleInit(): void {
    this.moduleRef.get(AdminTokenVerifiers, { strict: false }).register(this);
  }

  async isAdmin(token: string): Promise<boolean> {
    const key = sha256Base64url(token);
    const cached = this.cache.get(key);
    if (cached !== undefined && cached.until > Date.now()) return cached.admin;
    const generation = this.cache.generation();
    const stored = await this.lookup.activeAccessToken(token);
    const admin =
      stored !== undefined && stored.session.grantType === 'client_credentials' && stored.scope.includes(this.oauth2.adminScope);
    this.cache.set(key, { admin, until: stored?.expiresAt.getTime() ?? Number.POSITIVE_INFINITY }, generation);
    return admin;
  }
}
