import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Page } from '../common/pagination/page.js';
import { AcpPolicyIndexes } from './acp-policy-indexes.js';
import { AcpRolesRepository } from './acp-roles.repository.js';
import { AcpLimits } from './acp-limits.js';
import { parseId, parseText } from './acp-params.js';
import type { UpsertRoleDto } from './dto/upsert-role.dto.js';
import type { Flavor, RoleDefinition } from './engine/policy-definition.js';
import { PoliciesError } from './policies.errors.js';

/** Roles of each flavor: a role id may be a policy subject and stands for each of the role's members. */
@Injectable()
export class AcpRolesService {
  constructor(
    private readonly roles: AcpRolesRepository,
    private readonly indexes: AcpPolicyIndexes,
  ) {}

  /** Creates or replaces a role (members listed once each, in order). */
  async upsert(flavor: Flavor, input: UpsertRoleDto): Promise<RoleDefinition> {
    const role: RoleDefinition = {
      id: input.id === undefined || input.id === '' ? randomUUID() : input.id,
      description: input.description ?? '',
      members: [...new Set(input.members ?? [])],
    };
    await this.roles.upsert(flavor, role, this.indexes.announcement(flavor, 'role', role.id));
    return role;
  }

  async get(flavor: Flavor, id: string): Promise<RoleDefinition> {
    const role = await this.roles.find(flavor, parseId(id));
    if (role === undefined) throw PoliciesError.roleNotFound();
    return role;
  }

  async list(flavor: Flavor, page: Page, member: string | undefined): Promise<RoleDefinition[]> {
    return this.roles.list(flavor, page, member === undefined ? undefined : parseText(member, 'member'));
  }

  /** Deleting a role that does not exist succeeds (Keto). */
  async delete(flavor: Flavor, id: string): Promise<void> {
    const parsed = parseId(id);
    await this.roles.delete(flavor, parsed, this.indexes.announcement(flavor, 'role', parsed));
  }

  /** Adds members to an existing role; 404 for an unknown role (Keto with SQL storage). */
  async addMembers(flavor: Flavor, id: string, members: readonly string[]): Promise<RoleDefinition> {
    const parsed = parseId(id);
    const result = await this.roles.addMembers(flavor, parsed, [...new Set(members)], this.indexes.announcement(flavor, 'role', parsed));
    if ('problem' in result) {
      if (result.problem === 'not_found') throw PoliciesError.roleNotFound();
      throw PoliciesError.roleTooLarge(AcpLimits.membersPerRole);
    }
    return result.role;
  }

  /** Removes one member (absent already: unchanged); 404 for an unknown role. */
  async removeMember(flavor: Flavor, id: string, member: string): Promise<RoleDefinition> {
    const parsed = parseId(id);
    const role = await this.roles.removeMember(
      flavor,
      parsed,
      parseText(member, 'member'),
      this.indexes.announcement(flavor, 'role', parsed),
    );
    if (role === undefined) throw PoliciesError.roleNotFound();
    return role;
  }
}
