import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FailureQuery } from '../login/login-throttle.js';
import { LoginFailureEntity } from '../login/entities/login-failure.entity.js';
import { type EmbeddedRead, type NamedStatement, runNamed, runNamedFirst } from '../../database/named-statements.js';
import { isUuid } from '../../database/uuid.js';
import { entityRows, type EntityRows } from '../../database/entity-rows.js';
import { FlowEntity } from './entities/flow.entity.js';
import type { FlowKind } from './flow-kind.js';

/** What a flow update may change. */
export type FlowChanges = Partial<Pick<FlowEntity, 'ui' | 'state' | 'active' | 'context' | 'identityId' | 'csrfTokenHash'>>;

/** The columns a flow update writes (all of them, so that one statement serves every change). */
export type FlowMutableColumns = Required<FlowChanges>;

/** What `update` writes: the mutable columns and the time of the change. */
const UPDATED = [
  'state',
  'active',
  'ui',
  'context',
  'identityId',
  'csrfTokenHash',
  'updatedAt',
] as const satisfies readonly (keyof FlowEntity)[];

/** The statements of every flow request, on the columns FlowEntity declares (see entityRows). */
function statements(flows: EntityRows<FlowEntity>) {
  return {
    insert: {
      name: 'self_service_flows_insert',
      text: `INSERT INTO self_service_flows (${flows.columns}) VALUES (${flows.placeholders()})`,
    },
    find: {
      name: 'self_service_flows_find',
      text: `SELECT ${flows.columns} FROM self_service_flows WHERE id = $1 AND kind = $2`,
    },
    update: {
      name: 'self_service_flows_update',
      text: `UPDATE self_service_flows SET ${flows.assignments(UPDATED, 2)} WHERE id = $1`,
    },
  } satisfies Record<string, NamedStatement>;
}

/**
 * A login flow with what its submit reads next, in one statement (one round trip): the failed-login
 * counts it is judged by (LoginThrottle) and the password credential of the identifier submitted (an
 * EmbeddedRead of the identities context, from $4 on).
 */
function findLoginForSubmit(
  flows: EntityRows<FlowEntity>,
  failures: EntityRows<LoginFailureEntity>,
  credential: EmbeddedRead<unknown>,
): NamedStatement {
  return {
    name: 'self_service_flows_find_login_for_submit',
    text: `SELECT ${flows.columns},
             (SELECT COALESCE(json_agg(${failures.jsonObject('f')}), '[]')
                FROM self_service_login_failures f WHERE f.key = ANY($2) AND f.window_started_at > $3) AS login_failures,
             ${credential.sql(4)} AS password_credential
             FROM self_service_flows WHERE id = $1 AND kind = 'login'`,
  };
}

/** The `self_service_flows` table, through named statements (every flow request touches it). */
@Injectable()
export class FlowsRepository {
  private readonly flows: EntityRows<FlowEntity>;
  private readonly failures: EntityRows<LoginFailureEntity>;
  private readonly statements: ReturnType<typeof statements>;

  constructor(private readonly dataSource: DataSource) {
    this.flows = entityRows(dataSource, FlowEntity);
    this.failures = entityRows(dataSource, LoginFailureEntity);
    this.statements = statements(this.flows);
  }

  async insert(flow: FlowEntity): Promise<void> {
    await runNamed(this.dataSource, this.statements.insert, this.flows.values(flow));
  }

  /** The flow of that kind, or null (also for a malformed id or a flow of another kind). */
  async find(kind: FlowKind, id: string): Promise<FlowEntity | null> {
    if (!isUuid(id)) return null;
    return runNamedFirst(this.dataSource, this.statements.find, [id, kind], this.flows.toEntity);
  }

  /** The login flow with that id, the failure counts of `failures` and the result of `credential`; null without the flow (as `find`). */
  async findLoginForSubmit<C>(
    id: string,
    failures: FailureQuery,
    credential: EmbeddedRead<C>,
  ): Promise<{ flow: FlowEntity; failures: LoginFailureEntity[]; credential: C } | null> {
    if (!isUuid(id)) return null;
    const { rows } = await runNamed<{
      login_failures: Record<string, unknown>[];
      password_credential: unknown;
    }>(this.dataSource, findLoginForSubmit(this.flows, this.failures, credential), [
      id,
      failures.keys,
      failures.cutoff,
      ...credential.values,
    ]);
    const [row] = rows;
    if (row === undefined) return null;
    return {
      flow: this.flows.toEntity(row),
      failures: row.login_failures.map(this.failures.fromJson),
      credential: credential.parse(row.password_credential),
    };
  }

  async update(id: string, columns: FlowMutableColumns, now: Date): Promise<void> {
    await runNamed(this.dataSource, this.statements.update, [id, ...this.flows.valuesOf({ ...columns, updatedAt: now }, UPDATED)]);
  }
}
