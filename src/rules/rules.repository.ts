import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { QueryDeepPartialEntity, Repository } from 'typeorm';
import { sqlStateOf } from '../database/sql-state.js';
import type { AccessRule } from './access-rule.js';
import { AccessRuleEntity } from './entities/access-rule.entity.js';
import { RulesError } from './rules.errors.js';

/** Input PostgreSQL refused (a NUL in a string, bad encoding, too long): validation should catch it first. */
const INPUT_ERRORS = new Set(['22001', '22021', '22P05', '54000']);

/** A stored row as it was written; read back through validation before it is put in force. */
export interface StoredRule {
  readonly id: string;
  readonly document: unknown;
}

/** Storage of the rules written through the admin API. Every query is parameterized. */
@Injectable()
export class RulesRepository {
  constructor(@InjectRepository(AccessRuleEntity) private readonly rules: Repository<AccessRuleEntity>) {}

  /** Creates or replaces; true when the rule was created. */
  async upsert(rule: AccessRule): Promise<boolean> {
    // A jsonb document: TypeORM's deep-partial typing does not fit it, the value is stored as is.
    const row: QueryDeepPartialEntity<AccessRuleEntity> = { id: rule.id, document: rule as QueryDeepPartialEntity<AccessRule> };
    const result = await this.rules
      .createQueryBuilder()
      .insert()
      .into(AccessRuleEntity)
      .values(row)
      .orUpdate(['document', 'updated_at'], ['id'])
      .returning('(xmax = 0) AS "inserted"')
      .updateEntity(false)
      .execute()
      .catch((error: unknown) => Promise.reject(translate(error)));
    const raw = result.raw as Array<{ inserted: boolean }>;
    return raw[0]?.inserted === true;
  }

  /** False when there was nothing to delete. */
  async delete(id: string): Promise<boolean> {
    const result = await this.rules.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  async find(id: string): Promise<StoredRule | undefined> {
    const entity = await this.rules.findOneBy({ id });
    return entity === null ? undefined : { id: entity.id, document: entity.document };
  }

  async all(): Promise<StoredRule[]> {
    return (await this.rules.find({ order: { id: 'ASC' } })).map((entity) => ({ id: entity.id, document: entity.document }));
  }
}

function translate(error: unknown): unknown {
  const state = sqlStateOf(error);
  return state !== undefined && INPUT_ERRORS.has(state) ? RulesError.invalidInput('body', 'a value is not acceptable') : error;
}
