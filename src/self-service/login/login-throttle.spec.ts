import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { SelfServiceError, SelfServiceErrorCode } from '../self-service.errors.js';
import { LoginFailureEntity } from './entities/login-failure.entity.js';
import { LoginThrottle } from './login-throttle.js';

const config = { loginThrottle: { maxFailuresPerIdentifier: 3, maxFailuresPerIp: 10, windowSeconds: 300 } } as SelfServiceConfig;

/** A row of the table as pg returns it. */
interface FailureRow {
  key: string;
  failures: number;
  window_started_at: Date;
}

/** The table's metadata as TypeORM builds it at boot, without a connection. */
let metadata: DataSource;
beforeAll(async () => {
  metadata = new DataSource({ type: 'postgres', entities: [LoginFailureEntity] });
  await (metadata as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
});

/** A DataSource whose pool answers every query with `rows`, counting the queries. */
function database(rows: FailureRow[]): { dataSource: DataSource; queries: unknown[][] } {
  const queries: unknown[][] = [];
  const pool = {
    query: async (query: { values: unknown[] }) => {
      queries.push(query.values);
      return { rows };
    },
  };
  const dataSource = Object.create(metadata) as DataSource;
  Object.defineProperty(dataSource, 'driver', { value: Object.assign(Object.create(metadata.driver) as object, { master: pool }) });
  return { dataSource, queries };
}

const now = new Date('2026-11-25T12:00:00Z');

describe('LoginThrottle', () => {
  it('judges an attempt by counts read with the flow, without reading them again', async () => {
    const { dataSource, queries } = database([]);
    const throttle = new LoginThrottle(config, dataSource);
    const query = throttle.query('ann@example.com', '10.0.0.1', now);
    const over = query.keys.map((key) => ({ key, failures: key.startsWith('identifier:') ? 3 : 0, windowStartedAt: now }));
    const error = await throttle
      .assertAllowed('ann@example.com', '10.0.0.1', { keys: query.keys, rows: over }, now)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SelfServiceError);
    expect((error as SelfServiceError).reason).toBe(SelfServiceErrorCode.TooManyAttempts);
    const allowed = await throttle.assertAllowed('ann@example.com', '10.0.0.1', { keys: query.keys, rows: [] }, now);
    expect(allowed.identifierHasFailures).toBe(false);
    expect(queries).toHaveLength(0);
  });

  it('reads the counts itself when those given were read for other keys', async () => {
    const query = new LoginThrottle(config, database([]).dataSource).query('ann@example.com', '10.0.0.1', now);
    const [identifierKey] = query.keys;
    const { dataSource, queries } = database([{ key: identifierKey!, failures: 3, window_started_at: now }]);
    const throttle = new LoginThrottle(config, dataSource);
    const other = throttle.query('bob@example.com', '10.0.0.1', now);
    const error = await throttle.assertAllowed('ann@example.com', '10.0.0.1', { keys: other.keys, rows: [] }, now).catch((e: unknown) => e);
    expect((error as SelfServiceError).reason).toBe(SelfServiceErrorCode.TooManyAttempts);
    expect(queries).toHaveLength(1);
  });
});
