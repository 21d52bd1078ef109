import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FailureQuery, FailureRow } from '../login/login-throttle.js';
import { type EmbeddedRead, type NamedStatement, runNamed, runNamedFirst } from '../../database/named-statements.js';
import { isUuid } from '../../database/uuid.js';
import type { UiContainer } from '../ui/ui-container.js';
import { FlowEntity } from './entities/flow.entity.js';
import type { FlowKind, FlowType } from './flow-kind.js';

/** What a flow update may change. */
export type FlowChanges = Partial<Pick<FlowEntity, 'ui' | 'state' | 'active' | 'context' | 'identityId' | 'csrfTokenHash'>>;

/** The columns a flow update writes (all of them, so that one statement serves every change). */
export type FlowMutableColumns = Required<FlowChanges>;

const COLUMNS =
  'id, kind, type, state, active, forced, request_url, return_to, ui, csrf_token_hash, identity_id, context, issued_at, expires_at, created_at, updated_at';

const INSERT: NamedStatement = {
  name: 'self_service_flows_insert',
  text: `INSERT INTO self_service_flows (${COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12::jsonb, $13, $14, $15, $16)`,
};
const FIND: NamedStatement = {
  name: 'self_service_flows_find',
  text: `SELECT ${COLUMNS} FROM self_service_flows WHERE id = $1 AND kind = $2`,
};
/**
 * A login flow with what its submit reads next, in one statement (one round trip): the failed-login
 * counts it is judged by (LoginThrottle) and the password credential of the identifier submitted (an
 * EmbeddedRead of the identities context, from $4 on).
 */
function findLoginForSubmit(credential: EmbeddedRead<unknown>): NamedStatement {
  return {
    name: 'self_service_flows_find_login_for_submit',
    text: `SELECT ${COLUMNS},
             (SELECT COALESCE(json_agg(json_build_object('key', f.key, 'failures', f.failures, 'window_started_at', f.window_started_at)), '[]')
                FROM self_service_login_failures f WHERE f.key = ANY($2) AND f.window_started_at > $3) AS login_failures,
             ${credential.sql(4)} AS password_credential
             FROM self_service_flows WHERE id = $1 AND kind = 'login'`,
  };
}
const UPDATE: NamedStatement = {
  name: 'self_service_flows_update',
  text: `UPDATE self_service_flows
            SET state = $2, active = $3, ui = $4::jsonb, context = $5::jsonb, identity_id = $6, csrf_token_hash = $7, updated_at = $8
          WHERE id = $1`,
};

interface FlowRow {
  id: string;
  kind: FlowKind;
  type: FlowType;
  state: string | null;
  active: string | null;
  forced: boolean;
  request_url: string;
  return_to: string | null;
  ui: UiContainer;
  csrf_token_hash: string | null;
  identity_id: string | null;
  context: Record<string, unknown>;
  issued_at: Date;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** The `self_service_flows` table, through named statements (every flow request touches it). */
@Injectable()
export class FlowsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(flow: FlowEntity): Promise<void> {
    await runNamed(this.dataSource, INSERT, [
      flow.id,
      flow.kind,
      flow.type,
      flow.state,
      flow.active,
      flow.forced,
      flow.requestUrl,
      flow.returnTo,
      JSON.stringify(flow.ui),
      flow.csrfTokenHash,
      flow.identityId,
      JSON.stringify(flow.context),
      flow.issuedAt,
      flow.expiresAt,
      flow.createdAt,
      flow.updatedAt,
    ]);
  }

  /** The flow of that kind, or null (also for a malformed id or a flow of another kind). */
  async find(kind: FlowKind, id: string): Promise<FlowEntity | null> {
    if (!isUuid(id)) return null;
    return runNamedFirst(this.dataSource, FIND, [id, kind], toEntity);
  }

  /** The login flow with that id, the failure counts of `failures` and the result of `credential`; null without the flow (as `find`). */
  async findLoginForSubmit<C>(
    id: string,
    failures: FailureQuery,
    credential: EmbeddedRead<C>,
  ): Promise<{ flow: FlowEntity; failures: FailureRow[]; credential: C } | null> {
    if (!isUuid(id)) return null;
    const { rows } = await runNamed<
      FlowRow & { login_failures: { key: string; failures: number; window_started_at: string }[]; password_credential: unknown }
    >(this.dataSource, findLoginForSubmit(credential), [id, failures.keys, failures.cutoff, ...credential.values]);
    const [row] = rows;
    if (row === undefined) return null;
    return {
      flow: toEntity(row),
      failures: row.login_failures.map((failure) => ({
        key: failure.key,
        failures: failure.failures,
        window_started_at: new Date(failure.window_started_at),
      })),
      credential: credential.parse(row.password_credential),
    };
  }

  async update(id: string, columns: FlowMutableColumns, now: Date): Promise<void> {
    await runNamed(this.dataSource, UPDATE, [
      id,
      columns.state,
      columns.active,
      JSON.stringify(columns.ui),
      JSON.stringify(columns.context),
      columns.identityId,
      columns.csrfTokenHash,
      now,
    ]);
  }
}

function toEntity(row: FlowRow): FlowEntity {
  return Object.assign(new FlowEntity(), {
    id: row.id,
    kind: row.kind,
    type: row.type,
    state: row.state,
    active: row.active,
    forced: row.forced,
    requestUrl: row.request_url,
    returnTo: row.return_to,
    ui: row.ui,
    csrfTokenHash: row.csrf_token_hash,
    identityId: row.identity_id,
    context: row.context,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
