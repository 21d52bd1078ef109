import { Injectable } from '@nestjs/common';
import { withTransaction } from '../database/named-statements.js';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type QueryDeepPartialEntity, type Repository } from 'typeorm';
import type { Announce } from '../database/change-notifier.js';
import type { Page } from '../common/pagination/page.js';
import { translateDatabaseError } from './acp-database-errors.js';
import { AcpPolicyEntity } from './entities/acp-policy.entity.js';
import type { Flavor, PolicyDefinition } from './engine/policy-definition.js';
import { policyFromEntity } from './policies.mapper.js';

export interface PolicyFilter {
  readonly subject?: string | undefined;
  readonly resource?: string | undefined;
  readonly action?: string | undefined;
}

/** Storage of policies, per flavor. Every query is parameterized; input errors become PoliciesError. */
@Injectable()
export class AcpPoliciesRepository {
  constructor(@InjectRepository(AcpPolicyEntity) private readonly policies: Repository<AcpPolicyEntity>) {}

  /** Creates or replaces the policy and announces it, in one transaction. */
  async upsert(flavor: Flavor, policy: PolicyDefinition, announce: Announce): Promise<void> {
    const row: QueryDeepPartialEntity<AcpPolicyEntity> = {
      flavor,
      id: policy.id,
      description: policy.description,
      effect: policy.effect,
      subjects: [...policy.subjects],
      resources: [...policy.resources],
      actions: [...policy.actions],
      // A jsonb document: TypeORM's deep-partial typing does not fit open records, the value is stored as is.
      conditions: policy.conditions as QueryDeepPartialEntity<AcpPolicyEntity['conditions']>,
    };
    await withTransaction(this.policies.manager.dataSource, async ({ manager }) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(AcpPolicyEntity)
        .values(row)
        .orUpdate(['description', 'effect', 'subjects', 'resources', 'actions', 'conditions', 'updated_at'], ['flavor', 'id'])
        .updateEntity(false)
        .execute();
      await announce(manager);
    }).catch((error: unknown) => Promise.reject(translateDatabaseError(error)));
  }

  async find(flavor: Flavor, id: string): Promise<PolicyDefinition | undefined> {
    const entity = await this.policies.findOneBy({ flavor, id });
    return entity === null ? undefined : policyFromEntity(entity);
  }

  /** Ordered by id (Keto's SQL order); the filters apply before the page is cut. */
  async list(flavor: Flavor, page: Page, filter: PolicyFilter): Promise<PolicyDefinition[]> {
    const query = this.policies.createQueryBuilder('policy').where('policy.flavor = :flavor', { flavor });
    if (filter.subject !== undefined) query.andWhere('policy.subjects @> ARRAY[:subject]::text[]', { subject: filter.subject });
    if (filter.resource !== undefined) query.andWhere('policy.resources @> ARRAY[:resource]::text[]', { resource: filter.resource });
    if (filter.action !== undefined) query.andWhere('policy.actions @> ARRAY[:action]::text[]', { action: filter.action });
    const entities = await query.orderBy('policy.id', 'ASC').limit(page.limit).offset(page.offset).getMany();
    return entities.map(policyFromEntity);
  }

  /** Deletes and announces it in one transaction; false when there was nothing to delete. */
  async delete(flavor: Flavor, id: string, announce: Announce): Promise<boolean> {
    return withTransaction(this.policies.manager.dataSource, async ({ manager }) => {
      const deleted = ((await manager.delete(AcpPolicyEntity, { flavor, id })).affected ?? 0) > 0;
      if (deleted) await announce(manager);
      return deleted;
    });
  }

  /** Every policy of the flavor, to build its index. */
  async all(flavor: Flavor): Promise<PolicyDefinition[]> {
    return (await this.policies.find({ where: { flavor } })).map(policyFromEntity);
  }

  async findMany(flavor: Flavor, ids: readonly string[]): Promise<PolicyDefinition[]> {
    if (ids.length === 0) return [];
    return (await this.policies.find({ where: { flavor, id: In([...ids]) } })).map(policyFromEntity);
  }
}
