// The identities context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export { AddressTokensService, type IssuedToken } from './address-tokens.service.js';
export type { IdentityResponseDto } from './dto/identity-response.dto.js';
export { IdentitiesError, IdentitiesErrorCode } from './identities.errors.js';
export { IdentitiesModule } from './identities.module.js';
export { IDENTITIES_CHANGED_TOPIC, IdentitiesService, type ProvisionedIdentity, type TraitsDescription } from './identities.service.js';
export { IdentityLifecycle, type AccessEndReason, type IdentityAccessObserver } from './identity-lifecycle.js';
export type { IdentityRecord } from './identity-record.js';
// One limiter for every password hash and verification in the process, whichever context runs it.
export { PasswordHashing } from './password-hashing.js';
// What identities count as an address or an identifier, and the schema they start with.
export { BUILT_IN_IDENTITY_SCHEMA } from './schemas/built-in-identity-schema.js';
export { isEmailAddress } from './schemas/email-address.js';
export type { PasswordCredential } from './identities.repository.js';
