import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HealthModule } from '../health/index.js';
import { AccessRuleEntity } from './entities/access-rule.entity.js';
import { RulesAdminController } from './rules-admin.controller.js';
import { RulesRepository } from './rules.repository.js';
import { RulesService } from './rules.service.js';

/** Access rules: loading (files and storage), the admin API, and matching requests to rules. */
@Module({
  imports: [TypeOrmModule.forFeature([AccessRuleEntity]), HealthModule],
  controllers: [RulesAdminController],
  providers: [RulesService, RulesRepository],
  exports: [RulesService],
})
export class RulesModule {}
