import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Why an identity's access ends: it was set `inactive`, or it is being deleted. */
export type AccessEndReason = 'deactivated' | 'deleted';

/**
 * A context holding credentials issued to an identity (sessions, OAuth2 login sessions and tokens)
 * ends them when told; it runs inside the transaction that deactivates or deletes the identity, so
 * both commit together or neither does.
 */
export interface IdentityAccessObserver {
  endAccess(identityId: string, reason: AccessEndReason, manager: EntityManager): Promise<void>;
}

/**
 * The identities context's lifecycle hook. Contexts that issue credentials register an observer at
 * module init; identities calls them without knowing them, so it depends on none of them.
 */
@Injectable()
export class IdentityLifecycle {
  private readonly observers: IdentityAccessObserver[] = [];

  register(observer: IdentityAccessObserver): void {
    this.observers.push(observer);
  }

  /** One after the other: they share the transaction's single connection. */
  async endAccess(identityId: string, reason: AccessEndReason, manager: EntityManager): Promise<void> {
    for (const observer of this.observers) await observer.endAccess(identityId, reason, manager);
  }
}
