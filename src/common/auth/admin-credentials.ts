import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AdminConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { sha2Digest } from '../crypto/digest.js';
import { AppError } from '../errors/app-error.js';
import { ErrorKind } from '../errors/error-kind.js';
import { AdminTokenVerifiers } from './admin-token-verifiers.js';

/**
 * The one check of an admin credential, for AuthGuard (controllers marked `admin` or
 * `admin_or_client`) and for plain routes with access `admin` alike. `ADMIN_AUTH=off` admits
 * everyone; otherwise a bearer token whose SHA-256 matches a static admin token (compared in constant
 * time, against every digest), else one a registered verifier accepts. The static match, the common
 * case, is answered at once: only a miss asks the verifiers, which may need the database.
 */
@Injectable()
export class AdminCredentials {
  private readonly open: boolean;
  private readonly digests: readonly Buffer[];

  constructor(
    @InjectConfig('admin') admin: AdminConfig,
    private readonly verifiers: AdminTokenVerifiers,
  ) {
    this.open = admin.auth === 'off';
    this.digests = admin.tokenDigests.map((digest) => Buffer.from(digest, 'hex'));
  }

  /**
   * Refuses (throws 401 `unauthorized` with `WWW-Authenticate: Bearer realm="admin"`) unless the
   * `Authorization` header carries an admin credential. Returns undefined when that is known at once,
   * a promise only when a verifier has to be asked.
   */
  authorize(authorization: string | undefined): Promise<void> | undefined {
    if (this.open) return undefined;
    const token = bearerToken(authorization);
    if (token === undefined) throw adminUnauthorized();
    if (this.isStatic(token)) return undefined;
    return this.verifiers.anyAccepts(token).then((accepted) => {
      if (!accepted) throw adminUnauthorized();
    });
  }

  private isStatic(token: string): boolean {
    const presented = sha2Digest('sha256', token);
    let matched = false;
    for (const digest of this.digests) matched = timingSafeEqual(presented, digest) || matched;
    return matched;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

export function adminUnauthorized(): AppError {
  return new AppError(ErrorKind.Unauthorized, 'unauthorized', 'The request could not be authorized: an admin credential is required.', {
    headers: { 'www-authenticate': 'Bearer realm="admin"' },
  });
}
