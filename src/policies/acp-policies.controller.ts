import { Body, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import type { Page } from '../common/pagination/page.js';
import { PageQuery } from '../common/pagination/page-query.decorator.js';
import { AcpPoliciesService } from './acp-policies.service.js';
import { ListPoliciesQueryDto } from './dto/list-policies-query.dto.js';
import type { PolicyResponseDto } from './dto/policy-response.dto.js';
import { UpsertPolicyDto } from './dto/upsert-policy.dto.js';
import type { Flavor } from './engine/policy-definition.js';
import { FlavorPipe } from './flavor.pipe.js';
import { toPolicyResponse } from './policies.mapper.js';

/** Access-control policies of one flavor (Keto v0.5 `/engines/acp/ory/{flavor}/policies`). */
@AdminController('engines/acp/service/:flavor/policies')
export class AcpPoliciesController {
  constructor(private readonly policies: AcpPoliciesService) {}

  @Put()
  @HttpCode(200)
  async upsert(@Param('flavor', FlavorPipe) flavor: Flavor, @Body() body: UpsertPolicyDto): Promise<PolicyResponseDto> {
    return toPolicyResponse(await this.policies.upsert(flavor, body));
  }

  @Get()
  async list(
    @Param('flavor', FlavorPipe) flavor: Flavor,
    @PageQuery() page: Page,
    @Query() query: ListPoliciesQueryDto,
  ): Promise<PolicyResponseDto[]> {
    return (await this.policies.list(flavor, page, query)).map(toPolicyResponse);
  }

  @Get(':id')
  async get(@Param('flavor', FlavorPipe) flavor: Flavor, @Param('id') id: string): Promise<PolicyResponseDto> {
    return toPolicyResponse(await this.policies.get(flavor, id));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('flavor', FlavorPipe) flavor: Flavor, @Param('id') id: string): Promise<void> {
    await this.policies.delete(flavor, id);
  }
}
