import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AddressTokensRepository } from './address-tokens.repository.js';
import { AddressTokensService } from './address-tokens.service.js';
import { IdentityRecoveryTokenEntity } from './entities/identity-recovery-token.entity.js';
import { IdentitiesAdminController } from './identities-admin.controller.js';
import { IdentitiesRepository } from './identities.repository.js';
import { IdentitiesService } from './identities.service.js';
import { IdentityLifecycle } from './identity-lifecycle.js';
import { PasswordHashing } from './password-hashing.js';
import { PasswordImport } from './password-import.js';
import { RecoveryLinksAdminController } from './recovery-links-admin.controller.js';
import { RecoveryLinksService } from './recovery-links.service.js';
import { RecoveryTokensRepository } from './recovery-tokens.repository.js';
import { IdentitySchemaRegistry } from './schemas/identity-schema-registry.js';
import { SchemasAdminController } from './schemas-admin.controller.js';
import { SchemasPublicController } from './schemas-public.controller.js';

@Module({
  imports: [TypeOrmModule.forFeature([IdentityRecoveryTokenEntity])],
  controllers: [IdentitiesAdminController, RecoveryLinksAdminController, SchemasPublicController, SchemasAdminController],
  providers: [
    AddressTokensService,
    AddressTokensRepository,
    IdentitiesService,
    IdentitiesRepository,
    IdentitySchemaRegistry,
    IdentityLifecycle,
    PasswordHashing,
    PasswordImport,
    RecoveryLinksService,
    RecoveryTokensRepository,
  ],
  exports: [IdentitiesService, AddressTokensService, PasswordHashing, IdentityLifecycle],
})
export class IdentitiesModule {}
