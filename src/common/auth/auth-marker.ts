import { SetMetadata } from '@nestjs/common';

/**
 * How a route authenticates its caller. Every route carries exactly one marker (checked at boot by
 * RouteAuditService): `admin` routes need an admin credential, `bearer` routes check an OAuth2 access
 * token themselves, `public` routes are open by design. `admin_or_client` routes (introspection) take
 * an admin credential, or, when the request carries no bearer token, leave the handler to
 * authenticate an OAuth2 client itself.
 */
export type AuthMarker = 'admin' | 'admin_or_client' | 'bearer' | 'public';
export const AUTH_MARKER_METADATA = 'latchkey:auth';

export const AdminAuth = (): ClassDecorator & MethodDecorator => SetMetadata(AUTH_MARKER_METADATA, 'admin');
export const AdminOrClientAuth = (): ClassDecorator & MethodDecorator => SetMetadata(AUTH_MARKER_METADATA, 'admin_or_client');
export const BearerAuth = (): ClassDecorator & MethodDecorator => SetMetadata(AUTH_MARKER_METADATA, 'bearer');
export const PublicAccess = (): ClassDecorator & MethodDecorator => SetMetadata(AUTH_MARKER_METADATA, 'public');
