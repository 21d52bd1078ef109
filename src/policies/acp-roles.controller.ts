import { Body, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { AdminController } from '../common/auth/controllers.js';
import type { Page } from '../common/pagination/page.js';
import { PageQuery } from '../common/pagination/page-query.decorator.js';
import { AcpRolesService } from './acp-roles.service.js';
import { AddMembersDto } from './dto/add-members.dto.js';
import { ListRolesQueryDto } from './dto/list-roles-query.dto.js';
import type { RoleResponseDto } from './dto/role-response.dto.js';
import { UpsertRoleDto } from './dto/upsert-role.dto.js';
import type { Flavor } from './engine/policy-definition.js';
import { FlavorPipe } from './flavor.pipe.js';
import { toRoleResponse } from './roles.mapper.js';

/** Roles of one flavor (Keto v0.5 `/engines/acp/ory/{flavor}/roles`). */
@AdminController('engines/acp/service/:flavor/roles')
export class AcpRolesController {
  constructor(private readonly roles: AcpRolesService) {}

  @Put()
  @HttpCode(200)
  async upsert(@Param('flavor', FlavorPipe) flavor: Flavor, @Body() body: UpsertRoleDto): Promise<RoleResponseDto> {
    return toRoleResponse(await this.roles.upsert(flavor, body));
  }

  @Get()
  async list(
    @Param('flavor', FlavorPipe) flavor: Flavor,
    @PageQuery() page: Page,
    @Query() query: ListRolesQueryDto,
  ): Promise<RoleResponseDto[]> {
    return (await this.roles.list(flavor, page, query.member)).map(toRoleResponse);
  }

  @Get(':id')
  async get(@Param('flavor', FlavorPipe) flavor: Flavor, @Param('id') id: string): Promise<RoleResponseDto> {
    return toRoleResponse(await this.roles.get(flavor, id));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('flavor', FlavorPipe) flavor: Flavor, @Param('id') id: string): Promise<void> {
    await this.roles.delete(flavor, id);
  }

  @Put(':id/members')
  @HttpCode(200)
  async addMembers(
    @Param('flavor', FlavorPipe) flavor: Flavor,
    @Param('id') id: string,
    @Body() body: AddMembersDto,
  ): Promise<RoleResponseDto> {
    return toRoleResponse(await this.roles.addMembers(flavor, id, body.members));
  }

  @Delete(':id/members/:member')
  @HttpCode(200)
  async removeMember(
    @Param('flavor', FlavorPipe) flavor: Flavor,
    @Param('id') id: string,
    @Param('member') member: string,
  ): Promise<RoleResponseDto> {
    return toRoleResponse(await this.roles.removeMember(flavor, id, member));
  }
}
