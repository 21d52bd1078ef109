import { describe, expect, it } from 'vitest';
import type { SelfServiceConfig } from '../../config/app-config.js';
import type { IdentityRecord } from '../../identities/index.js';
import type { LinkFlowSteps } from '../recovery/link-flow-steps.js';
import { VerificationFlowKind } from './verification-flow-kind.js';
import { VerificationSender } from './verification-sender.js';

function address(
  value: string,
  verified: boolean,
  status = verified ? 'completed' : 'pending',
): IdentityRecord['verifiableAddresses'][number] {
  return {
    id: `id-${value}`,
    identityId: 'i',
    via: 'email',
    value,
    verified,
    verifiedAt: null,
    status,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
}

describe('VerificationSender', () => {
  it('sends one link per pending address (neither verified nor sent before), each with a flow id of its own, expiring after the flow lifespan', async () => {
    const sent: { flowId: string; expiresAt: Date; email: string }[] = [];
    const steps = {
      sendLink: async (_kind: unknown, flowId: string, expiresAt: Date, email: string) => void sent.push({ flowId, expiresAt, email }),
    } as unknown as LinkFlowSteps;
    const config = { flowLifespan: 3600 } as SelfServiceConfig;
    const sender = new VerificationSender(config, steps, new VerificationFlowKind({} as never));
    const record = {
      identity: {},
      recoveryAddresses: [],
      verifiableAddresses: [
        address('a@example.com', false),
        address('b@example.com', true),
        address('c@example.com', false),
        address('d@example.com', false, 'sent'),
      ],
    } as unknown as IdentityRecord;
    await sender.sendFor(record);
    expect(sent.map((entry) => entry.email)).toEqual(['a@example.com', 'c@example.com']);
    expect(sent[0]!.flowId).not.toBe(sent[1]!.flowId);
    const lifespan = sent[0]!.expiresAt.getTime() - Date.now();
    expect(lifespan).toBeGreaterThan(3590_000);
    expect(lifespan).toBeLessThanOrEqual(3600_000);
  });
});
