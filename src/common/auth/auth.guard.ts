import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AdminConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { AppError } from '../errors/app-error.js';
import { ErrorKind } from '../errors/error-kind.js';
import { sha256Hex } from '../crypto/digest.js';
import { AdminTokenVerifiers } from './admin-token-verifiers.js';
import { AUTH_MARKER_METADATA, type AuthMarker } from './auth-marker.js';

/**
 * Deny by default: a route without an auth marker is refused; `admin` routes need a static admin token
 * or a token a registered verifier accepts; `public` and `bearer` routes pass (bearer routes check
 * their token in the handler, where its scopes matter).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly digests: Buffer[];

  constructor(
    private readonly reflector: Reflector,
    @InjectConfig('admin') private readonly admin: AdminConfig,
    private readonly verifiers: AdminTokenVerifiers,
  ) {
    this.digests = admin.tokenDigests.map((digest) => Buffer.from(digest, 'hex'));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const marker = this.reflector.getAllAndOverride<AuthMarker | undefined>(AUTH_MARKER_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    switch (marker) {
      case 'public':
      case 'bearer':
        return true;
      case 'admin':
        if (this.admin.auth === 'off') return true;
        if (await this.isAdmin(context.switchToHttp().getRequest<FastifyRequest>())) return true;
        throw unauthorized();
      case 'admin_or_client': {
        if (this.admin.auth === 'off') return true;
        const request = context.switchToHttp().getRequest<FastifyRequest>();
        // A bearer token here can only be an admin credential; anything else is the handler's client authentication.
        if (bearerToken(request.headers.authorization) === undefined || (await this.isAdmin(request))) return true;
        throw unauthorized();
      }
      case undefined:
        throw unauthorized();
    }
  }

  private async isAdmin(request: FastifyRequest): Promise<boolean> {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return false;
    const presented = Buffer.from(sha256Hex(token), 'hex');
    let matched = false;
    for (const digest of this.digests) matched = timingSafeEqual(presented, digest) || matched;
    return matched || (await this.verifiers.anyAccepts(token));
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

function unauthorized(): AppError {
  return new AppError(ErrorKind.Unauthorized, 'unauthorized', 'The request could not be authorized: an admin credential is required.', {
    headers: { 'www-authenticate': 'Bearer realm="admin"' },
  });
}
