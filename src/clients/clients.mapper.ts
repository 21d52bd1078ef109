import type { Client, ClientDraft, JsonWebKeySet, SubjectType, TokenEndpointAuthMethod } from './client.js';
import { ClientResponseDto } from './dto/client-response.dto.js';
import { ClientEntity } from './entities/client.entity.js';

/** Row → the context's read model. The row's secret hash never leaves the repository and service. */
export function toClient(entity: ClientEntity): Client {
  return Object.freeze({
    id: entity.id,
    name: entity.clientName,
    redirectUris: entity.redirectUris,
    grantTypes: entity.grantTypes,
    responseTypes: entity.responseTypes,
    scope: entity.scope,
    audience: entity.audience,
    owner: entity.owner,
    policyUri: entity.policyUri,
    tosUri: entity.tosUri,
    clientUri: entity.clientUri,
    logoUri: entity.logoUri,
    contacts: entity.contacts,
    allowedCorsOrigins: entity.allowedCorsOrigins,
    subjectType: entity.subjectType as SubjectType,
    sectorIdentifierUri: entity.sectorIdentifierUri,
    jwks: (entity.jwks ?? undefined) as JsonWebKeySet | undefined,
    jwksUri: entity.jwksUri,
    requestUris: entity.requestUris,
    tokenEndpointAuthMethod: entity.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    tokenEndpointAuthSigningAlg: entity.tokenEndpointAuthSigningAlg,
    requestObjectSigningAlg: entity.requestObjectSigningAlg,
    userinfoSignedResponseAlg: entity.userinfoSignedResponseAlg,
    postLogoutRedirectUris: entity.postLogoutRedirectUris,
    frontchannelLogoutUri: entity.frontchannelLogoutUri,
    frontchannelLogoutSessionRequired: entity.frontchannelLogoutSessionRequired,
    backchannelLogoutUri: entity.backchannelLogoutUri,
    backchannelLogoutSessionRequired: entity.backchannelLogoutSessionRequired,
    metadata: entity.metadata as Record<string, unknown>,
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
  });
}

/** A validated draft → the columns of a row, except id, secret hash and timestamps. */
export function toColumns(draft: ClientDraft): Omit<ClientEntity, 'id' | 'secretHash' | 'createdAt' | 'updatedAt'> {
  return {
    clientName: draft.name,
    redirectUris: [...draft.redirectUris],
    grantTypes: [...draft.grantTypes],
    responseTypes: [...draft.responseTypes],
    scope: draft.scope,
    audience: [...draft.audience],
    owner: draft.owner,
    policyUri: draft.policyUri,
    tosUri: draft.tosUri,
    clientUri: draft.clientUri,
    logoUri: draft.logoUri,
    contacts: [...draft.contacts],
    allowedCorsOrigins: [...draft.allowedCorsOrigins],
    subjectType: draft.subjectType,
    sectorIdentifierUri: draft.sectorIdentifierUri,
    jwks: draft.jwks === undefined ? null : { keys: draft.jwks.keys.map((key) => ({ ...key })) },
    jwksUri: draft.jwksUri,
    requestUris: [...draft.requestUris],
    tokenEndpointAuthMethod: draft.tokenEndpointAuthMethod,
    tokenEndpointAuthSigningAlg: draft.tokenEndpointAuthSigningAlg,
    requestObjectSigningAlg: draft.requestObjectSigningAlg,
    userinfoSignedResponseAlg: draft.userinfoSignedResponseAlg,
    postLogoutRedirectUris: [...draft.postLogoutRedirectUris],
    frontchannelLogoutUri: draft.frontchannelLogoutUri,
    frontchannelLogoutSessionRequired: draft.frontchannelLogoutSessionRequired,
    backchannelLogoutUri: draft.backchannelLogoutUri,
    backchannelLogoutSessionRequired: draft.backchannelLogoutSessionRequired,
    metadata: { ...draft.metadata },
  };
}

/** The read model → the `oAuth2Client` wire shape; `secret` only when it was set by this very call. */
export function toClientResponse(client: Client, secret?: string): ClientResponseDto {
  const response = new ClientResponseDto();
  Object.assign(response, {
    client_id: client.id,
    client_name: client.name,
    ...(secret === undefined ? {} : { client_secret: secret }),
    client_secret_expires_at: 0,
    client_uri: client.clientUri,
    logo_uri: client.logoUri,
    policy_uri: client.policyUri,
    tos_uri: client.tosUri,
    owner: client.owner,
    contacts: [...client.contacts],
    allowed_cors_origins: [...client.allowedCorsOrigins],
    audience: [...client.audience],
    grant_types: [...client.grantTypes],
    response_types: [...client.responseTypes],
    redirect_uris: [...client.redirectUris],
    post_logout_redirect_uris: [...client.postLogoutRedirectUris],
    request_uris: [...client.requestUris],
    scope: client.scope,
    subject_type: client.subjectType,
    sector_identifier_uri: client.sectorIdentifierUri,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    token_endpoint_auth_signing_alg: client.tokenEndpointAuthSigningAlg,
    request_object_signing_alg: client.requestObjectSigningAlg,
    userinfo_signed_response_alg: client.userinfoSignedResponseAlg,
    ...(client.jwks === undefined ? {} : { jwks: { keys: client.jwks.keys.map((key) => ({ ...key })) } }),
    jwks_uri: client.jwksUri,
    metadata: client.metadata,
    backchannel_logout_uri: client.backchannelLogoutUri,
    backchannel_logout_session_required: client.backchannelLogoutSessionRequired,
    frontchannel_logout_uri: client.frontchannelLogoutUri,
    frontchannel_logout_session_required: client.frontchannelLogoutSessionRequired,
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
  } satisfies ClientResponseDto);
  return response;
}
