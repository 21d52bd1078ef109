import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '../../database/uuid.js';
import { row } from '../database-row.js';
import { ErrorContainerEntity } from './entities/error-container.entity.js';
import { SelfServiceError } from '../self-service.errors.js';

/** `selfServiceErrorContainer` on the wire. */
export interface ErrorContainerResponse {
  readonly id: string;
  readonly errors: readonly Record<string, unknown>[];
  readonly created_at: string;
  readonly updated_at: string;
}

interface ContainerRow {
  readonly id: string;
  readonly errors: Record<string, unknown>[];
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** The stub of `GET /self-service/errors?error=stub:500`, for UI development (Kratos' text). */
const STUB_500 = {
  code: 500,
  status: 'Internal Server Error',
  reason: 'This is a stub error.',
  message: 'An internal server error occurred, please contact the system administrator',
};

/**
 * Self-service error containers: errors a browser was redirected to the error UI for, stored so the
 * UI can show them (`GET /self-service/errors?error=<id>`). Reading marks a container as seen.
 */
@Injectable()
export class ErrorContainersService {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores the errors (objects in the identity family's error shape) and returns the container id. */
  async store(errors: readonly Record<string, unknown>[]): Promise<string> {
    const now = new Date();
    const id = randomUUID();
    await this.dataSource.manager.insert(
      ErrorContainerEntity,
      row<ErrorContainerEntity>({ id, errors: [...errors], wasSeen: false, seenAt: null, createdAt: now, updatedAt: now }),
    );
    return id;
  }

  /** 400 without an id; `stub:500` → the stub; 404 for an unknown id. */
  async get(id: unknown): Promise<ErrorContainerResponse> {
    if (typeof id !== 'string' || id === '')
      throw SelfServiceError.invalidRequest('The error query parameter is required.', { parameter: 'error' });
    const now = new Date();
    if (id === 'stub:500') return { id: randomUUID(), errors: [STUB_500], created_at: now.toISOString(), updated_at: now.toISOString() };
    // TypeORM answers an UPDATE with [rows, rowCount].
    const [rows]: [ContainerRow[], number] = isUuid(id)
      ? await this.dataSource.query(
          `UPDATE self_service_errors SET was_seen = true, seen_at = COALESCE(seen_at, $2) WHERE id = $1
           RETURNING id, errors, created_at, updated_at`,
          [id, now],
        )
      : [[], 0];
    const [row] = rows;
    if (row === undefined) throw SelfServiceError.errorNotFound();
    return {
      id: row.id,
      errors: row.errors,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }
}
