import type { IdentityResponseDto, PasswordCredentialResponseDto } from './dto/identity-response.dto.js';
import type { ExportedPasswordCredential } from './identities.repository.js';
import type { IdentityRecord } from './identity-record.js';

/** `schema_url` of an identity: where its schema is served on the public listener. */
export function schemaUrl(issuer: string, schemaId: string): string {
  return `${issuer}/schemas/${encodeURIComponent(schemaId)}`;
}

/**
 * Entity → wire. Credentials are never read into a record; a password credential is mapped only when
 * an admin asked for it (`include_credential=password`) and passes it here.
 */
export function toIdentityResponse(record: IdentityRecord, issuer: string, password?: ExportedPasswordCredential): IdentityResponseDto {
  const { identity } = record;
  return {
    id: identity.id,
    schema_id: identity.schemaId,
    schema_url: schemaUrl(issuer, identity.schemaId),
    traits: identity.traits as Record<string, unknown>,
    state: identity.state,
    ...(identity.stateChangedAt === null ? {} : { state_changed_at: identity.stateChangedAt.toISOString() }),
    recovery_addresses: record.recoveryAddresses.map((address) => ({
      id: address.id,
      value: address.value,
      via: address.via,
      created_at: address.createdAt.toISOString(),
      updated_at: address.updatedAt.toISOString(),
    })),
    verifiable_addresses: record.verifiableAddresses.map((address) => ({
      id: address.id,
      value: address.value,
      verified: address.verified,
      via: address.via,
      status: address.status,
      verified_at: address.verifiedAt === null ? null : address.verifiedAt.toISOString(),
      created_at: address.createdAt.toISOString(),
      updated_at: address.updatedAt.toISOString(),
    })),
    ...(password === undefined ? {} : { credentials: { password: toPasswordCredentialResponse(password) } }),
    created_at: identity.createdAt.toISOString(),
    updated_at: identity.updatedAt.toISOString(),
  };
}

function toPasswordCredentialResponse(credential: ExportedPasswordCredential): PasswordCredentialResponseDto {
  return {
    type: 'password',
    identifiers: credential.identifiers,
    config: credential.hashedPassword === undefined ? {} : { hashed_password: credential.hashedPassword },
    created_at: credential.createdAt.toISOString(),
    updated_at: credential.updatedAt.toISOString(),
  };
}
