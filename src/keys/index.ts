// The keys context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export type { KeyAlgorithm } from './key-algorithms.js';
export { ACCESS_TOKEN_SET, ID_TOKEN_SET } from './key-sets.js';
export { KeysModule } from './keys.module.js';
export { KeysService, type SerializedJwks } from './keys.service.js';
export { registerJwksRoute } from './well-known-jwks.route.js';
export { PRIVATE_JWK_MEMBERS } from './jwk.js';
