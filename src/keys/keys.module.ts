import { Module } from '@nestjs/common';
import { KeyCache } from './key-cache.js';
import { KeySetBootstrapper } from './key-set-bootstrapper.js';
import { KeysAdminController } from './keys-admin.controller.js';
import { KeysRepository } from './keys.repository.js';
import { KeysService } from './keys.service.js';
import { PrivateKeyCipher } from './private-key-cipher.js';
import { WellKnownJwksRoute } from './well-known-jwks.route.js';

/** JSON Web Key sets: admin API, public JWKS, encryption at rest. Exports KeysService for signing and verifying. */
@Module({
  controllers: [KeysAdminController],
  providers: [KeysService, KeysRepository, PrivateKeyCipher, KeyCache, KeySetBootstrapper, WellKnownJwksRoute],
  exports: [KeysService],
})
export class KeysModule {}
