import { Injectable } from '@nestjs/common';
import { withTransaction } from '../database/named-statements.js';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import type { Announce } from '../database/change-notifier.js';
import type { Page } from '../common/pagination/page.js';
import { translateDatabaseError } from './acp-database-errors.js';
import { AcpLimits } from './acp-limits.js';
import { AcpRoleEntity } from './entities/acp-role.entity.js';
import type { Flavor, RoleDefinition } from './engine/policy-definition.js';
import { roleFromEntity } from './roles.mapper.js';

/** `members` with the new ones appended in order, each member once. */
const APPENDED = `members || ARRAY(
  SELECT added.member FROM unnest(CAST(:added AS text[])) WITH ORDINALITY AS added(member, position)
  WHERE NOT (added.member = ANY(members)) ORDER BY added.position)`;

export type AddMembersResult = { readonly role: RoleDefinition } | { readonly problem: 'not_found' | 'too_large' };

/**
 * Storage of roles, per flavor. Membership changes are single statements, safe under concurrency.
 * Every write announces itself in its own transaction.
 */
@Injectable()
export class AcpRolesRepository {
  constructor(@InjectRepository(AcpRoleEntity) private readonly roles: Repository<AcpRoleEntity>) {}

  async upsert(flavor: Flavor, role: RoleDefinition, announce: Announce): Promise<void> {
    await this.announced(announce, async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(AcpRoleEntity)
        .values({ flavor, id: role.id, description: role.description, members: [...role.members] })
        .orUpdate(['description', 'members', 'updated_at'], ['flavor', 'id'])
        .updateEntity(false)
        .execute();
      return true;
    }).catch((error: unknown) => Promise.reject(translateDatabaseError(error)));
  }

  async find(flavor: Flavor, id: string): Promise<RoleDefinition | undefined> {
    const entity = await this.roles.findOneBy({ flavor, id });
    return entity === null ? undefined : roleFromEntity(entity);
  }

  async list(flavor: Flavor, page: Page, member: string | undefined): Promise<RoleDefinition[]> {
    const query = this.roles.createQueryBuilder('role').where('role.flavor = :flavor', { flavor });
    if (member !== undefined) query.andWhere('role.members @> ARRAY[:member]::text[]', { member });
    const entities = await query.orderBy('role.id', 'ASC').limit(page.limit).offset(page.offset).getMany();
    return entities.map(roleFromEntity);
  }

  async delete(flavor: Flavor, id: string, announce: Announce): Promise<boolean> {
    return this.announced(announce, async (manager) => ((await manager.delete(AcpRoleEntity, { flavor, id })).affected ?? 0) > 0);
  }

  /** Appends the members that are not there yet, unless the role would grow past its limit. */
  async addMembers(flavor: Flavor, id: string, added: readonly string[], announce: Announce): Promise<AddMembersResult> {
    let row: RoleDefinition | undefined;
    await this.announced(announce, async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(AcpRoleEntity)
        .set({ members: () => APPENDED, updatedAt: () => 'now()' })
        .where('flavor = :flavor AND id = :id', { flavor, id })
        .andWhere(`cardinality(${APPENDED}) <= :max`, { max: AcpLimits.membersPerRole })
        .setParameter('added', [...added])
        .returning(['id', 'description', 'members'])
        .updateEntity(false)
        .execute();
      [row] = result.raw as RoleDefinition[];
      return row !== undefined;
    }).catch((error: unknown) => Promise.reject(translateDatabaseError(error)));
    if (row !== undefined) return { role: roleFromEntity(row) };
    return { problem: (await this.roles.existsBy({ flavor, id })) ? 'too_large' : 'not_found' };
  }

  /** undefined when the role does not exist. */
  async removeMember(flavor: Flavor, id: string, member: string, announce: Announce): Promise<RoleDefinition | undefined> {
    let row: RoleDefinition | undefined;
    await this.announced(announce, async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(AcpRoleEntity)
        .set({ members: () => 'array_remove(members, :member)', updatedAt: () => 'now()' })
        .where('flavor = :flavor AND id = :id', { flavor, id })
        .setParameter('member', member)
        .returning(['id', 'description', 'members'])
        .updateEntity(false)
        .execute();
      [row] = result.raw as RoleDefinition[];
      return row !== undefined;
    });
    return row === undefined ? undefined : roleFromEntity(row);
  }

  /** Runs a write in a transaction that also announces it, when the write says it changed something. */
  private announced(announce: Announce, write: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    return withTransaction(this.roles.manager.dataSource, async ({ manager }) => {
      const changed = await write(manager);
      if (changed) await announce(manager);
      return changed;
    });
  }

  async all(flavor: Flavor): Promise<RoleDefinition[]> {
    return (await this.roles.find({ where: { flavor } })).map(roleFromEntity);
  }

  async findMany(flavor: Flavor, ids: readonly string[]): Promise<RoleDefinition[]> {
    if (ids.length === 0) return [];
    return (await this.roles.find({ where: { flavor, id: In([...ids]) } })).map(roleFromEntity);
  }
}
