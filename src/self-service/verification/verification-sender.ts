import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import type { IdentityRecord } from '../../identities/index.js';
import { LinkFlowSteps } from '../recovery/link-flow-steps.js';
import { VerificationFlowKind } from './verification-flow-kind.js';

/**
 * Sends verification links without a verification flow: after registration and after a settings
 * change, one e-mail per verifiable address still `pending` (never verified, never sent: a new one),
 * as Kratos' `verification` hook does. Each link carries a flow id of its own, as admin recovery
 * links do, and expires after SELFSERVICE_FLOW_LIFESPAN. Sending moves the address to `sent`.
 */
/** The status of a verifiable address nobody sent a link to yet. */
const PENDING = 'pending';

@Injectable()
export class VerificationSender {
  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly steps: LinkFlowSteps,
    private readonly kind: VerificationFlowKind,
  ) {}

  async sendFor(record: IdentityRecord): Promise<void> {
    const expiresAt = new Date(Date.now() + this.selfService.flowLifespan * 1000);
    for (const address of record.verifiableAddresses) {
      if (address.verified || address.status !== PENDING || address.via !== 'email') continue;
      await this.steps.sendLink(this.kind, randomUUID(), expiresAt, address.value);
    }
  }
}
