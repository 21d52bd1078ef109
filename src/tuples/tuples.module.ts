import { Module } from '@nestjs/common';
import { AdminAuthModule } from '../common/auth/admin-auth.module.js';
import { CheckCache } from './cache/check-cache.js';
import { GroupMemoCache } from './cache/group-memo-cache.js';
import { CheckRoute } from './check.route.js';
import { ExpandController } from './expand.controller.js';
import { NamespaceRegistry } from './namespace-registry.js';
import { PageTokenCodec } from './page-token.codec.js';
import { RelationTuplesController } from './relation-tuples.controller.js';
import { SetCheckBatchReader } from './storage/set-check-batch.reader.js';
import { TuplesRepository } from './tuples.repository.js';
import { TuplesService } from './tuples.service.js';

/** Namespaces, relation tuples, check and expand (Keto v0.6). Other contexts use TuplesService. */
@Module({
  imports: [AdminAuthModule],
  controllers: [RelationTuplesController, ExpandController],
  providers: [
    CheckRoute,
    TuplesService,
    TuplesRepository,
    NamespaceRegistry,
    CheckCache,
    GroupMemoCache,
    PageTokenCodec,
    SetCheckBatchReader,
  ],
  exports: [TuplesService],
})
export class TuplesModule {}
