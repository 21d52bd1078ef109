import { CreateClients1763800000000 } from '../../migrations/1763800000000-create-clients.js';
import { CreateKeys1763800001000 } from '../../migrations/1763800001000-create-keys.js';
import { CreateRelationTuples1763800002000 } from '../../migrations/1763800002000-create-relation-tuples.js';
import { CreateAcpPolicies1763800003000 } from '../../migrations/1763800003000-create-acp-policies.js';
import { CreateIdentities1763800004000 } from '../../migrations/1763800004000-create-identities.js';
import { CreateConsent1763800005000 } from '../../migrations/1763800005000-create-consent.js';
import { CreateOAuth2Tokens1763800006000 } from '../../migrations/1763800006000-create-oauth2-tokens.js';
import { CreateSelfService1763800007000 } from '../../migrations/1763800007000-create-self-service.js';
import { CreateCourier1763800008000 } from '../../migrations/1763800008000-create-courier.js';
import { CreateIdentityVerificationTokens1763800008100 } from '../../migrations/1763800008100-create-identity-verification-tokens.js';
import { FlowsIdentityIndexPartial1763800009000 } from '../../migrations/1763800009000-flows-identity-index-partial.js';
import { LogoutRequestHints1764000700000 } from '../../migrations/1764000700000-logout-request-hints.js';
import { IdentityState1764000400000 } from '../../migrations/1764000400000-identity-state.js';
import { CreateDirectorySync1764000401000 } from '../../migrations/1764000401000-create-directory-sync.js';
import { CreateAccessRules1764000200000 } from '../../migrations/1764000200000-create-access-rules.js';
import { DirectorySyncRejectionCount1764000800000 } from '../../migrations/1764000800000-directory-sync-rejection-count.js';
import { CacheVersions1764000900000 } from '../../migrations/1764000900000-cache-versions.js';
import { ClientEntity } from '../clients/entities/client.entity.js';
import { DirectoryConnectionEntity } from '../directory-sync/entities/directory-connection.entity.js';
import { DirectoryDeliveryEntity } from '../directory-sync/entities/directory-delivery.entity.js';
import { DirectoryEventEntity } from '../directory-sync/entities/directory-event.entity.js';
import { DirectoryGroupLinkEntity } from '../directory-sync/entities/directory-group-link.entity.js';
import { DirectoryUserLinkEntity } from '../directory-sync/entities/directory-user-link.entity.js';
import { ConsentRequestEntity } from '../consent/entities/consent-request.entity.js';
import { LoginRequestEntity } from '../consent/entities/login-request.entity.js';
import { LoginSessionEntity } from '../consent/entities/login-session.entity.js';
import { LogoutRequestEntity } from '../consent/entities/logout-request.entity.js';
import { IdentityCredentialIdentifierEntity } from '../identities/entities/identity-credential-identifier.entity.js';
import { IdentityCredentialEntity } from '../identities/entities/identity-credential.entity.js';
import { IdentityRecoveryAddressEntity } from '../identities/entities/identity-recovery-address.entity.js';
import { IdentityRecoveryTokenEntity } from '../identities/entities/identity-recovery-token.entity.js';
import { IdentityVerifiableAddressEntity } from '../identities/entities/identity-verifiable-address.entity.js';
import { IdentityVerificationTokenEntity } from '../identities/entities/identity-verification-token.entity.js';
import { IdentityEntity } from '../identities/entities/identity.entity.js';
import { JsonWebKeyEntity } from '../keys/entities/json-web-key.entity.js';
import { AccessTokenEntity } from '../oauth/tokens/entities/access-token.entity.js';
import { AuthorizationCodeEntity } from '../oauth/tokens/entities/authorization-code.entity.js';
import { RefreshTokenEntity } from '../oauth/tokens/entities/refresh-token.entity.js';
import { UsedJtiEntity } from '../oauth/tokens/entities/used-jti.entity.js';
import { AcpPolicyEntity } from '../policies/entities/acp-policy.entity.js';
import { AcpRoleEntity } from '../policies/entities/acp-role.entity.js';
import { CourierMessageEntity } from '../self-service/courier/entities/courier-message.entity.js';
import { ErrorContainerEntity } from '../self-service/errors/entities/error-container.entity.js';
import { FlowEntity } from '../self-service/flows/entities/flow.entity.js';
import { LoginFailureEntity } from '../self-service/login/entities/login-failure.entity.js';
import { SessionEntity } from '../self-service/sessions/entities/session.entity.js';
import { AccessRuleEntity } from '../rules/entities/access-rule.entity.js';
import { RelationTupleEntity } from '../tuples/entities/relation-tuple.entity.js';

/**
 * Every entity and every migration, listed by class: TypeORM globs do not work well under ESM, and a
 * list makes a forgotten registration a compile-time matter. Contexts append theirs here.
 */
export const ENTITIES: Function[] = [
  ClientEntity,
  JsonWebKeyEntity,
  RelationTupleEntity,
  AcpPolicyEntity,
  AcpRoleEntity,
  IdentityEntity,
  IdentityCredentialEntity,
  IdentityCredentialIdentifierEntity,
  IdentityVerifiableAddressEntity,
  IdentityRecoveryAddressEntity,
  IdentityRecoveryTokenEntity,
  IdentityVerificationTokenEntity,
  LoginSessionEntity,
  LoginRequestEntity,
  ConsentRequestEntity,
  LogoutRequestEntity,
  AuthorizationCodeEntity,
  AccessTokenEntity,
  RefreshTokenEntity,
  UsedJtiEntity,
  SessionEntity,
  FlowEntity,
  ErrorContainerEntity,
  LoginFailureEntity,
  CourierMessageEntity,
  DirectoryConnectionEntity,
  DirectoryUserLinkEntity,
  DirectoryGroupLinkEntity,
  DirectoryEventEntity,
  DirectoryDeliveryEntity,
  AccessRuleEntity,
];

export const MIGRATIONS: Function[] = [
  CreateClients1763800000000,
  CreateKeys1763800001000,
  CreateRelationTuples1763800002000,
  CreateAcpPolicies1763800003000,
  CreateIdentities1763800004000,
  CreateConsent1763800005000,
  CreateOAuth2Tokens1763800006000,
  CreateSelfService1763800007000,
  CreateCourier1763800008000,
  CreateIdentityVerificationTokens1763800008100,
  FlowsIdentityIndexPartial1763800009000,
  LogoutRequestHints1764000700000,
  IdentityState1764000400000,
  CreateDirectorySync1764000401000,
  CreateAccessRules1764000200000,
  DirectorySyncRejectionCount1764000800000,
  CacheVersions1764000900000,
];
