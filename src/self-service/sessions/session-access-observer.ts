import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { IdentityLifecycle, type AccessEndReason, type IdentityAccessObserver } from '../../identities/index.js';
import { SessionsRepository } from './sessions.repository.js';

/**
 * Ends an identity's self-service sessions when it is deactivated (a deleted identity's sessions go by
 * cascade). Whoami caches drop them on the identities change the identities context announces after
 * the commit.
 */
@Injectable()
export class SessionAccessObserver implements IdentityAccessObserver, OnModuleInit {
  constructor(
    private readonly lifecycle: IdentityLifecycle,
    private readonly repository: SessionsRepository,
  ) {}

  onModuleInit(): void {
    this.lifecycle.register(this);
  }

  async endAccess(identityId: string, reason: AccessEndReason, manager: EntityManager): Promise<void> {
    if (reason === 'deactivated') await this.repository.revokeAllOf(identityId, new Date(), manager);
  }
}
