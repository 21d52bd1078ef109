import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { row } from '../database-row.js';
import { FlowEntity } from './entities/flow.entity.js';
import { FLOW_ID, type FlowKind } from './flow-kind.js';

/** What a flow update may change. */
export type FlowChanges = Partial<Pick<FlowEntity, 'ui' | 'state' | 'active' | 'context' | 'identityId' | 'csrfTokenHash'>>;

/** The `self_service_flows` table. */
@Injectable()
export class FlowsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(flow: FlowEntity): Promise<void> {
    await this.dataSource.manager.insert(FlowEntity, row<FlowEntity>(flow));
  }

  /** The flow of that kind, or null (also for a malformed id or a flow of another kind). */
  async find(kind: FlowKind, id: string): Promise<FlowEntity | null> {
    if (!FLOW_ID.test(id)) return null;
    return this.dataSource.manager.findOne(FlowEntity, { where: { id, kind } });
  }

  async update(id: string, changes: FlowChanges, now: Date): Promise<void> {
    await this.dataSource.manager.update(FlowEntity, { id }, row<FlowEntity>({ ...changes, updatedAt: now }));
  }
}
