import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OAuth2Config } from '../../config/app-config.js';
import type { ConsentFlowService } from '../../consent/index.js';
import type { TokensRepository } from '../tokens/tokens.repository.js';
import { TokenJanitor } from './token-janitor.js';

function janitor(intervalSeconds: number): { janitor: TokenJanitor; cutoffs: Date[]; consentCutoffs: Date[] } {
  const cutoffs: Date[] = [];
  const consentCutoffs: Date[] = [];
  const consentFlows = {
    deleteExpired: async (before: Date) => {
      consentCutoffs.push(before);
      return 0;
    },
  } as unknown as ConsentFlowService;
  const repository = {
    deleteExpired: async (before: Date) => {
      cutoffs.push(before);
      return { codes: 0, accessTokens: 0, refreshTokens: 0, jtis: 0 };
    },
  } as unknown as TokensRepository;
  const oauth2 = { janitorIntervalSeconds: intervalSeconds } as OAuth2Config;
  return { janitor: new TokenJanitor(repository, consentFlows, oauth2), cutoffs, consentCutoffs };
}

describe('TokenJanitor', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every interval until shutdown', async () => {
    const { janitor: subject, cutoffs } = janitor(60);
    subject.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(cutoffs).toHaveLength(2);
    subject.onApplicationShutdown();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(cutoffs).toHaveLength(2);
  });

  it('does not run periodically when the interval is 0', async () => {
    const { janitor: subject, cutoffs } = janitor(0);
    subject.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(cutoffs).toHaveLength(0);
    subject.onApplicationShutdown();
  });

  it('flush cuts a future notAfter to now and keeps a past one, for tokens and consent flows alike', async () => {
    const { janitor: subject, cutoffs, consentCutoffs } = janitor(0);
    await subject.flush(new Date('2030-01-01T00:00:00Z'));
    await subject.flush(new Date('2025-06-01T00:00:00Z'));
    await subject.flush();
    expect(cutoffs.map((date) => date.toISOString())).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2025-06-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(consentCutoffs).toEqual(cutoffs);
  });
});
