import type { SessionEntity } from './entities/session.entity.js';

/** `session` on the wire (Kratos v0.6): never the token, the identity without credentials. */
export interface SessionResponse {
  readonly id: string;
  readonly active: boolean;
  readonly expires_at: string;
  readonly authenticated_at: string;
  readonly issued_at: string;
  readonly identity: unknown;
}

export function toSessionResponse(session: SessionEntity, identity: unknown): SessionResponse {
  return {
    id: session.id,
    active: session.active,
    expires_at: session.expiresAt.toISOString(),
    authenticated_at: session.authenticatedAt.toISOString(),
    issued_at: session.issuedAt.toISOString(),
    identity,
  };
}
