import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { IdentityLifecycle, type AccessEndReason, type IdentityAccessObserver } from '../identities/index.js';
import { ConsentRequestEntity } from './entities/consent-request.entity.js';
import { LoginSessionEntity } from './entities/login-session.entity.js';

/**
 * Ends an identity's OAuth2 access when it is deactivated or deleted: its remembered login sessions
 * and its consents go, and with the consents (ON DELETE CASCADE) every token they yielded. The
 * identity id is the subject the built-in login hands to the OAuth2 flows.
 */
@Injectable()
export class SubjectAccessObserver implements IdentityAccessObserver, OnModuleInit {
  constructor(private readonly lifecycle: IdentityLifecycle) {}

  onModuleInit(): void {
    this.lifecycle.register(this);
  }

  async endAccess(identityId: string, _reason: AccessEndReason, manager: EntityManager): Promise<void> {
    await manager.delete(LoginSessionEntity, { subject: identityId });
    await manager.delete(ConsentRequestEntity, { subject: identityId });
  }
}
