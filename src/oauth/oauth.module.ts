import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/index.js';
import { ConsentModule } from '../consent/index.js';
import { OutboundHttp } from '../common/http/outbound-http.js';
import { KeysModule } from '../keys/index.js';
import { ClientAssertionVerifier } from './client-auth/client-assertion.verifier.js';
import { ClientAuthenticator } from './client-auth/client-authenticator.js';
import { ClientJwks } from './client-auth/client-jwks.js';
import { DiscoveryRoute } from './discovery/discovery.route.js';
import { IntrospectionAdminController } from './introspection/introspection-admin.controller.js';
import { IntrospectionService } from './introspection/introspection.service.js';
import { BackchannelLogoutNotifier } from './logout/backchannel-logout.notifier.js';
import { LogoutController } from './logout/logout.controller.js';
import { LogoutTokenSigner } from './logout/logout-token.signer.js';
import { LogoutResponder } from './logout/logout.responder.js';
import { LogoutService } from './logout/logout.service.js';
import { FlushAdminController } from './janitor/flush-admin.controller.js';
import { TokenJanitor } from './janitor/token-janitor.js';
import { RevocationController } from './revocation/revocation.controller.js';
import { RevocationService } from './revocation/revocation.service.js';
import { AuthorizationCodeGrant } from './token-endpoint/authorization-code.grant.js';
import { ClientCredentialsGrant } from './token-endpoint/client-credentials.grant.js';
import { RefreshTokenGrant } from './token-endpoint/refresh-token.grant.js';
import { TokenEndpointService } from './token-endpoint/token-endpoint.service.js';
import { TokenSetIssuer } from './token-endpoint/token-set.issuer.js';
import { TokenRoute } from './token-endpoint/token.route.js';
import { AuthorizeController } from './authorize/authorize.controller.js';
import { AuthorizeResponder } from './authorize/authorize.responder.js';
import { AuthorizeService } from './authorize/authorize.service.js';
import { RequestObjectResolver } from './authorize/request-object.resolver.js';
import { FallbacksController } from './fallbacks/fallbacks.controller.js';
import { AccessTokenBatchWriter } from './tokens/access-token-batch.writer.js';
import { AccessTokenMinter } from './tokens/access-token.minter.js';
import { AdminScopeTokenVerifier } from './tokens/admin-scope-token.verifier.js';
import { AuthorizeResponseIssuer } from './tokens/authorize-response.issuer.js';
import { IdTokenHintVerifier } from './tokens/id-token-hint.verifier.js';
import { IdTokenSigner } from './tokens/id-token.signer.js';
import { SubjectIdentifiers } from './tokens/subject-identifiers.js';
import { TokenCodec } from './tokens/token-codec.js';
import { TokenLookup } from './tokens/token-lookup.js';
import { TokensRepository } from './tokens/tokens.repository.js';
import { UserinfoController } from './userinfo/userinfo.controller.js';
import { UserinfoService } from './userinfo/userinfo.service.js';

/** The OAuth 2.0 / OpenID Connect endpoints: authorize, token, revoke, introspect, userinfo, discovery, logout. */
@Module({
  imports: [ClientsModule, KeysModule, ConsentModule],
  controllers: [
    RevocationController,
    IntrospectionAdminController,
    UserinfoController,
    FlushAdminController,
    AuthorizeController,
    FallbacksController,
    LogoutController,
  ],
  providers: [
    IdTokenHintVerifier,
    // The end-session endpoint (GET/POST /oauth2/sessions/logout) and front-/back-channel logout.
    LogoutService,
    LogoutResponder,
    LogoutTokenSigner,
    BackchannelLogoutNotifier,
    // The authorization endpoint (GET/POST /oauth2/auth) and its responses.
    AuthorizeService,
    AuthorizeResponder,
    RequestObjectResolver,
    OutboundHttp,
    // Token issuing and the token-side endpoints: token, revoke, introspect, userinfo, discovery, flush.
    TokenCodec,
    TokensRepository,
    TokenLookup,
    SubjectIdentifiers,
    IdTokenSigner,
    AccessTokenMinter,
    AccessTokenBatchWriter,
    AuthorizeResponseIssuer,
    ClientJwks,
    ClientAssertionVerifier,
    ClientAuthenticator,
    TokenSetIssuer,
    AuthorizationCodeGrant,
    RefreshTokenGrant,
    ClientCredentialsGrant,
    TokenEndpointService,
    // POST /oauth2/token, a plain Fastify route.
    TokenRoute,
    RevocationService,
    IntrospectionService,
    UserinfoService,
    DiscoveryRoute,
    AdminScopeTokenVerifier,
    TokenJanitor,
  ],
  // IntrospectionService and ClientAuthenticator: the decision pipeline's introspection and
  // client-credentials authenticators judge our own tokens and clients in process.
  exports: [AuthorizeResponseIssuer, SubjectIdentifiers, IntrospectionService, ClientAuthenticator],
})
export class OAuthModule {}
