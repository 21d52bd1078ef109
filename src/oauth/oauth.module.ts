import { Module } from '@nestjs/common';
import { ClientsModule } from '../clients/clients.module.js';
import { ConsentModule } from '../consent/consent.module.js';
import { KeysModule } from '../keys/keys.module.js';
import { IdTokenHintVerifier } from './tokens/id-token-hint.verifier.js';

/** The OAuth 2.0 / OpenID Connect endpoints: authorize, token, revoke, introspect, userinfo, discovery, logout. */
@Module({
  imports: [ClientsModule, KeysModule, ConsentModule],
  controllers: [],
  providers: [IdTokenHintVerifier],
  exports: [],
})
export class OAuthModule {}
