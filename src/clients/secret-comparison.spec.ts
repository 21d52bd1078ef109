import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeNotifier } from '../database/change-notifier.js';
import { ClientSecretHasher, PBKDF2_ITERATIONS } from './client-secret-hasher.js';
import type { ClientValidator } from './client-validator.js';
import { ClientsError, ClientsErrorCode } from './clients.errors.js';
import type { ClientsRepository } from './clients.repository.js';
import { ClientsService } from './clients.service.js';
import { ClientEntity } from './entities/client.entity.js';
import { SecretVerificationCache } from './secret-verification-cache.js';

/**
 * The timing of the client secret check, without a timed test: timing cannot be measured reliably
 * on a shared machine, so these specs pin down the properties that make it constant instead. Every
 * check runs PBKDF2 with the stored parameters, whatever the client and the presented secret, and
 * every comparison is `timingSafeEqual` over two digests of one fixed length, so it never throws on a
 * length mismatch and never stops at the first differing byte.
 */
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, pbkdf2: vi.fn(actual.pbkdf2), timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const RIGHT = 'correct-horse-battery-staple-0123456789';

/** Wrong secrets: empty, short, long, multibyte, and sharing 1, 8, all-but-one and all characters (plus one) with the right one. */
const WRONG = [
  '',
  'c',
  RIGHT.slice(0, 8),
  RIGHT.slice(0, -1),
  `${RIGHT.slice(0, -1)}X`,
  `${RIGHT}x`,
  'x'.repeat(72),
  'x'.repeat(73),
  'é'.repeat(200),
  'x'.repeat(100_000),
];

/** [secret, salt, iterations, keylen, digest] of each PBKDF2 run since the last clear. */
function pbkdf2Runs(): Array<[number, number, string]> {
  return vi.mocked(pbkdf2).mock.calls.map((call) => [call[2], call[3], call[4]]);
}

/** The byte lengths of both sides of each comparison since the last clear. */
function comparedLengths(): Array<[number, number]> {
  return vi.mocked(timingSafeEqual).mock.calls.map(([a, b]) => [a.byteLength, b.byteLength]);
}

describe('S30: ClientSecretHasher.verify', () => {
  const hasher = new ClientSecretHasher();

  it.each(WRONG.map((secret) => [secret.length, secret]))(
    'refuses a wrong secret of %i characters without throwing, after one full PBKDF2 run and one fixed-length comparison',
    async (_length, secret) => {
      const stored = await hasher.hash(RIGHT);
      vi.mocked(pbkdf2).mockClear();
      vi.mocked(timingSafeEqual).mockClear();
      await expect(hasher.verify(secret, stored)).resolves.toBe(false);
      expect(pbkdf2Runs()).toEqual([[PBKDF2_ITERATIONS, 32, 'sha256']]);
      expect(comparedLengths()).toEqual([[32, 32]]);
    },
  );

  it('accepts the right secret through the very same path', async () => {
    const stored = await hasher.hash(RIGHT);
    vi.mocked(pbkdf2).mockClear();
    vi.mocked(timingSafeEqual).mockClear();
    await expect(hasher.verify(RIGHT, stored)).resolves.toBe(true);
    expect(pbkdf2Runs()).toEqual([[PBKDF2_ITERATIONS, 32, 'sha256']]);
    expect(comparedLengths()).toEqual([[32, 32]]);
  });
});

describe('S30: ClientsService.authenticate', () => {
  let hasher: ClientSecretHasher;
  let service: ClientsService;

  beforeEach(async () => {
    hasher = new ClientSecretHasher();
    const rows = new Map<string, ClientEntity>([
      [
        'app',
        Object.assign(new ClientEntity(), {
          id: 'app',
          secretHash: await hasher.hash(RIGHT),
          tokenEndpointAuthMethod: 'client_secret_basic',
        }),
      ],
      ['spa', Object.assign(new ClientEntity(), { id: 'spa', secretHash: null, tokenEndpointAuthMethod: 'none' })],
    ]);
    const repository = { findWithSecretHash: (id: string) => Promise.resolve(rows.get(id) ?? null) };
    service = new ClientsService(
      repository as unknown as ClientsRepository,
      {} as ClientValidator,
      hasher,
      { subscribe: () => undefined, versionOf: () => () => Promise.resolve('0') } as unknown as ChangeNotifier,
      { system: ['unit-test-system-secret'] },
    );
    vi.mocked(pbkdf2).mockClear();
    service.onModuleInit();
    // The dummy hash is made at start (one run), not by the first unknown client.
    expect(pbkdf2Runs()).toHaveLength(1);
    await hasher.dummyHash();
  });

  async function refused(
    clientId: string,
    secret: string,
  ): Promise<{ runs: Array<[number, number, string]>; lengths: Array<[number, number]> }> {
    vi.mocked(pbkdf2).mockClear();
    vi.mocked(timingSafeEqual).mockClear();
    const error = await service.authenticate(clientId, secret).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ClientsError);
    expect((error as ClientsError).reason).toBe(ClientsErrorCode.InvalidClient);
    return { runs: pbkdf2Runs(), lengths: comparedLengths() };
  }

  it('costs one identical PBKDF2 run and one 32-byte comparison for a wrong secret, an unknown client and a public client', async () => {
    const expected = { runs: [[PBKDF2_ITERATIONS, 32, 'sha256']], lengths: [[32, 32]] };
    for (const secret of WRONG) {
      expect(await refused('app', secret)).toEqual(expected);
      expect(await refused('no-such-client', secret)).toEqual(expected);
      expect(await refused('spa', secret)).toEqual(expected);
    }
  });
});

describe('S30: SecretVerificationCache.has', () => {
  it('compares two 32-byte HMACs whatever the presented secret, and never throws', () => {
    const cache = new SecretVerificationCache('system-secret-0123456789', { ttlMs: 60_000, maxEntries: 10 });
    cache.remember('app', RIGHT, cache.generation());
    for (const secret of WRONG) {
      vi.mocked(timingSafeEqual).mockClear();
      expect(cache.has('app', secret)).toBe(false);
      expect(comparedLengths()).toEqual([[32, 32]]);
    }
  });
});
