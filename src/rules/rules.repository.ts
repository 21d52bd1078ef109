import type { Announce } from '../database/change-notifier.js';
import { withTransaction } from '../database/named-statements.js';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SecretBox } from '../common/crypto/secret-box.js';
import { SecretBoxError } from '../common/crypto/secret-box.error.js';
import type { SecretsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { sqlStateOf } from '../database/sql-state.js';
import type { AccessRule } from './access-rule.js';
import { AccessRuleEntity } from './entities/access-rule.entity.js';
import { RulesError } from './rules.errors.js';

/** SecretBox purpose of stored rules; the rule id is the associated data. */
const DOCUMENT_PURPOSE = 'access-rules/document';
/** Input PostgreSQL refused (a NUL in a string, bad encoding, too long): validation should catch it first. */
const INPUT_ERRORS = new Set(['22001', '22021', '22P05', '54000']);

/** A stored row as it was written, read back through validation before it is put in force. */
export type StoredRule = { readonly id: string; readonly document: unknown } | { readonly id: string; readonly unreadable: string };

/** Storage of the rules written through the admin API. Every query is parameterized. */
@Injectable()
export class RulesRepository {
  private readonly box: SecretBox;

  constructor(
    @InjectRepository(AccessRuleEntity) private readonly rules: Repository<AccessRuleEntity>,
    @InjectConfig('secrets') secrets: SecretsConfig,
  ) {
    this.box = new SecretBox(secrets.system, DOCUMENT_PURPOSE);
  }

  /** Creates or replaces, announced in the same transaction; true when the rule was created. */
  async upsert(rule: AccessRule, announce: Announce): Promise<boolean> {
    const sealedDocument = this.box.seal(JSON.stringify(rule), rule.id);
    return withTransaction(this.rules.manager.dataSource, async ({ manager }) => {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(AccessRuleEntity)
        .values({ id: rule.id, sealedDocument })
        .orUpdate(['sealed_document', 'updated_at'], ['id'])
        .returning('(xmax = 0) AS "inserted"')
        .updateEntity(false)
        .execute();
      await announce(manager);
      const raw = result.raw as Array<{ inserted: boolean }>;
      return raw[0]?.inserted === true;
    }).catch((error: unknown) => Promise.reject(translate(error)));
  }

  /** False when there was nothing to delete; a deletion is announced in its transaction. */
  async delete(id: string, announce: Announce): Promise<boolean> {
    return withTransaction(this.rules.manager.dataSource, async ({ manager }) => {
      const deleted = ((await manager.delete(AccessRuleEntity, { id })).affected ?? 0) > 0;
      if (deleted) await announce(manager);
      return deleted;
    });
  }

  async find(id: string): Promise<StoredRule | undefined> {
    const entity = await this.rules.findOneBy({ id });
    return entity === null ? undefined : this.opened(entity);
  }

  async all(): Promise<StoredRule[]> {
    return (await this.rules.find({ order: { id: 'ASC' } })).map((entity) => this.opened(entity));
  }

  private opened(entity: AccessRuleEntity): StoredRule {
    try {
      return { id: entity.id, document: JSON.parse(this.box.openString(entity.sealedDocument, entity.id)) as unknown };
    } catch (error) {
      if (error instanceof SecretBoxError) return { id: entity.id, unreadable: error.message };
      throw error;
    }
  }
}

function translate(error: unknown): unknown {
  const state = sqlStateOf(error);
  return state !== undefined && INPUT_ERRORS.has(state) ? RulesError.invalidInput('body', 'a value is not acceptable') : error;
}
