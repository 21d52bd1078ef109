import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AdminCredentials, adminUnauthorized, bearerToken } from './admin-credentials.js';
import { AUTH_MARKER_METADATA, type AuthMarker } from './auth-marker.js';

/**
 * Deny by default: a route without an auth marker is refused; `admin` routes need an admin credential
 * (AdminCredentials, the check plain routes with access `admin` use too); `public` and `bearer`
 * routes pass (bearer routes check their token in the handler, where its scopes matter).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: AdminCredentials,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const marker = this.reflector.getAllAndOverride<AuthMarker | undefined>(AUTH_MARKER_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    switch (marker) {
      case 'public':
      case 'bearer':
        return true;
      case 'admin':
        return this.admin(context.switchToHttp().getRequest<FastifyRequest>());
      case 'admin_or_client': {
        const request = context.switchToHttp().getRequest<FastifyRequest>();
        // A bearer token here can only be an admin credential; anything else is the handler's client authentication.
        if (bearerToken(request.headers.authorization) === undefined) return true;
        return this.admin(request);
      }
      case undefined:
        throw adminUnauthorized();
    }
  }

  private admin(request: FastifyRequest): boolean | Promise<boolean> {
    const pending = this.credentials.authorize(request.headers.authorization);
    return pending === undefined ? true : pending.then(() => true);
  }
}
