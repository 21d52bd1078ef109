import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A row of `clients`. Persistence only: never serialized (see clients.mapper.ts). Lists and key sets
 * are jsonb; unset strings are ''. The secret hash is not selected unless asked for.
 */
@Entity({ name: 'clients' })
export class ClientEntity {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: 255, primaryKeyConstraintName: 'clients_pkey' })
  id!: string;

  @Column({ name: 'client_name', type: 'text' })
  clientName!: string;

  /** `pbkdf2-sha256$<iterations>$<salt>$<key>`; null for clients without a secret (auth method `none`). */
  @Column({ name: 'secret_hash', type: 'text', nullable: true, select: false })
  secretHash!: string | null;

  @Column({ name: 'redirect_uris', type: 'jsonb' })
  redirectUris!: string[];

  @Column({ name: 'grant_types', type: 'jsonb' })
  grantTypes!: string[];

  @Column({ name: 'response_types', type: 'jsonb' })
  responseTypes!: string[];

  @Column({ name: 'scope', type: 'text' })
  scope!: string;

  @Column({ name: 'audience', type: 'jsonb' })
  audience!: string[];

  @Column({ name: 'owner', type: 'text' })
  owner!: string;

  @Column({ name: 'policy_uri', type: 'text' })
  policyUri!: string;

  @Column({ name: 'tos_uri', type: 'text' })
  tosUri!: string;

  @Column({ name: 'client_uri', type: 'text' })
  clientUri!: string;

  @Column({ name: 'logo_uri', type: 'text' })
  logoUri!: string;

  @Column({ name: 'contacts', type: 'jsonb' })
  contacts!: string[];

  @Column({ name: 'allowed_cors_origins', type: 'jsonb' })
  allowedCorsOrigins!: string[];

  @Column({ name: 'subject_type', type: 'text' })
  subjectType!: string;

  @Column({ name: 'sector_identifier_uri', type: 'text' })
  sectorIdentifierUri!: string;

  @Column({ name: 'jwks', type: 'jsonb', nullable: true })
  jwks!: { keys: object[] } | null;

  @Column({ name: 'jwks_uri', type: 'text' })
  jwksUri!: string;

  @Column({ name: 'request_uris', type: 'jsonb' })
  requestUris!: string[];

  @Column({ name: 'token_endpoint_auth_method', type: 'text' })
  tokenEndpointAuthMethod!: string;

  @Column({ name: 'token_endpoint_auth_signing_alg', type: 'text' })
  tokenEndpointAuthSigningAlg!: string;

  @Column({ name: 'request_object_signing_alg', type: 'text' })
  requestObjectSigningAlg!: string;

  @Column({ name: 'userinfo_signed_response_alg', type: 'text' })
  userinfoSignedResponseAlg!: string;

  @Column({ name: 'post_logout_redirect_uris', type: 'jsonb' })
  postLogoutRedirectUris!: string[];

  @Column({ name: 'frontchannel_logout_uri', type: 'text' })
  frontchannelLogoutUri!: string;

  @Column({ name: 'frontchannel_logout_session_required', type: 'boolean' })
  frontchannelLogoutSessionRequired!: boolean;

  @Column({ name: 'backchannel_logout_uri', type: 'text' })
  backchannelLogoutUri!: string;

  @Column({ name: 'backchannel_logout_session_required', type: 'boolean' })
  backchannelLogoutSessionRequired!: boolean;

  @Column({ name: 'metadata', type: 'jsonb' })
  metadata!: object;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
