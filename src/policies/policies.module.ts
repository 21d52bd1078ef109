import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminAuthModule } from '../common/auth/admin-auth.module.js';
import { AcpAllowedRoute } from './acp-allowed.route.js';
import { AcpDecisionsService } from './acp-decisions.service.js';
import { AcpPoliciesController } from './acp-policies.controller.js';
import { AcpPoliciesRepository } from './acp-policies.repository.js';
import { AcpPoliciesService } from './acp-policies.service.js';
import { AcpPolicyIndexes } from './acp-policy-indexes.js';
import { AcpRolesController } from './acp-roles.controller.js';
import { AcpRolesRepository } from './acp-roles.repository.js';
import { AcpRolesService } from './acp-roles.service.js';
import { AcpPolicyEntity } from './entities/acp-policy.entity.js';
import { AcpRoleEntity } from './entities/acp-role.entity.js';
import { FlavorPipe } from './flavor.pipe.js';

/** Access-control policies and roles per flavor, and allowed decisions (Keto v0.5 ACP engine). */
@Module({
  imports: [TypeOrmModule.forFeature([AcpPolicyEntity, AcpRoleEntity]), AdminAuthModule],
  controllers: [AcpPoliciesController, AcpRolesController],
  providers: [
    AcpAllowedRoute,
    AcpDecisionsService,
    AcpPoliciesService,
    AcpRolesService,
    AcpPoliciesRepository,
    AcpRolesRepository,
    AcpPolicyIndexes,
    FlavorPipe,
  ],
  exports: [AcpDecisionsService],
})
export class PoliciesModule {}
