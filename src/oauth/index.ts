// The oauth context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export { ClientAuthenticator } from './client-auth/client-authenticator.js';
export { IntrospectionService } from './introspection/introspection.service.js';
export { OAuthModule } from './oauth.module.js';
