import { Entity, Index } from 'typeorm';
import { tokenRowColumns } from './token-row.columns.js';

/**
 * A row of `oauth2_access_tokens`. `signature` is the HMAC part of an opaque token (or the SHA-256 of
 * a JWT access token's signature): the token itself is never stored. Revoking deletes the row.
 */
@Entity({ name: 'oauth2_access_tokens' })
// client_credentials tokens (no consent) skip the family and consent indexes: nothing looks them up so.
@Index('IDX_oauth2_access_tokens_request', ['requestId'], { where: '"consent_id" IS NOT NULL' })
@Index('IDX_oauth2_access_tokens_client', ['clientId'])
@Index('IDX_oauth2_access_tokens_consent', ['consentId'], { where: '"consent_id" IS NOT NULL' })
@Index('IDX_oauth2_access_tokens_expires_at', ['expiresAt'])
export class AccessTokenEntity extends tokenRowColumns('oauth2_access_tokens') {}
