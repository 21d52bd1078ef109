import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { SecretsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ChangeNotifier, type Announce } from '../database/change-notifier.js';
import { AddressTokensRepository, type RedeemedToken } from './address-tokens.repository.js';
import { IdentityRecoveryTokenEntity } from './entities/identity-recovery-token.entity.js';
import { IdentityVerificationTokenEntity } from './entities/identity-verification-token.entity.js';
import { IDENTITIES_CHANGED_TOPIC } from './identities.service.js';
import { linkTokenHmac, newLinkToken } from './link-token.js';
import { RecoveryTokensRepository } from './recovery-tokens.repository.js';
import { normalizeIdentifier } from '../common/text/identifier-normalization.js';

export type { RedeemedToken } from './address-tokens.repository.js';

/** A link token just issued: the clear token goes into the e-mail and nowhere else. */
export interface IssuedToken {
  readonly token: string;
  readonly identityId: string;
  /** The matched address as stored: the only place the link may be sent. */
  readonly address: string;
}

const EMAIL = 'email';

/**
 * The identities context's API for the self-service recovery and verification flows (link method):
 * tokens for e-mail addresses, bound to the flow that sent them, stored as HMAC-SHA256 under the first
 * system secret and looked up under every configured secret (so SECRETS_SYSTEM can rotate), used once.
 * Admin recovery links (RecoveryLinksService) live in the same table and are redeemed the same way.
 */
@Injectable()
export class AddressTokensService {
  private readonly secrets: readonly string[];

  constructor(
    @InjectConfig('secrets') secrets: SecretsConfig,
    private readonly repository: AddressTokensRepository,
    private readonly recoveryTokens: RecoveryTokensRepository,
    private readonly notifier: ChangeNotifier,
  ) {
    if (secrets.system.length === 0) throw new Error('SECRETS_SYSTEM is empty: secrets must be provisioned before the app starts');
    this.secrets = secrets.system;
  }

  /** A recovery token for the identity owning that recovery e-mail address; undefined when nobody does. */
  async issueRecoveryToken(email: string, flowId: string, expiresAt: Date): Promise<IssuedToken | undefined> {
    const value = normalizeIdentifier(email.trim());
    const owner = value === undefined ? undefined : await this.repository.findRecoveryAddress(EMAIL, value);
    if (owner === undefined) return undefined;
    const token = newLinkToken();
    await this.recoveryTokens.insert(
      Object.assign(new IdentityRecoveryTokenEntity(), {
        id: randomUUID(),
        identityId: owner.identityId,
        recoveryAddressId: owner.addressId,
        tokenHmac: linkTokenHmac(this.secrets[0]!, token),
        flowId,
        expiresAt,
        usedAt: null,
        createdAt: new Date(),
      }),
    );
    return { token, identityId: owner.identityId, address: owner.value };
  }

  /**
   * Uses up a recovery token issued for that flow (self-service or admin link). Undefined when unknown,
   * already used or issued for another flow; an expired one is used up too and returned with `expired`.
   */
  redeemRecoveryToken(token: string, flowId: string): Promise<RedeemedToken | undefined> {
    return this.repository.redeemRecoveryToken(this.hmacs(token), flowId);
  }

  /**
   * A verification token for that verifiable e-mail address; undefined when no identity has it. A
   * `pending` address becomes `sent`, as in Kratos, so a later settings change does not mail it again.
   */
  async issueVerificationToken(email: string, flowId: string, expiresAt: Date): Promise<IssuedToken | undefined> {
    const value = normalizeIdentifier(email.trim());
    const owner = value === undefined ? undefined : await this.repository.findVerifiableAddress(EMAIL, value);
    if (owner === undefined) return undefined;
    const token = newLinkToken();
    await this.repository.insertVerificationToken(
      Object.assign(new IdentityVerificationTokenEntity(), {
        id: randomUUID(),
        identityId: owner.identityId,
        verifiableAddressId: owner.addressId,
        tokenHmac: linkTokenHmac(this.secrets[0]!, token),
        flowId,
        expiresAt,
        usedAt: null,
        createdAt: new Date(),
      }),
    );
    await this.repository.markVerificationSent(owner.addressId, this.changed(owner.identityId));
    return { token, identityId: owner.identityId, address: owner.value };
  }

  /**
   * Uses up a verification token issued for that flow and, unless it expired, marks its address
   * verified. Undefined when unknown, already used or issued for another flow.
   */
  async redeemVerificationToken(token: string, flowId: string): Promise<RedeemedToken | undefined> {
    return this.repository.redeemVerificationToken(this.hmacs(token), flowId, (identityId) => this.changed(identityId));
  }

  /** Announces a change of the identity's addresses, inside its write's transaction, to every instance. */
  private changed(identityId: string): Announce {
    return (transaction) => this.notifier.publishWithin(transaction, IDENTITIES_CHANGED_TOPIC, identityId);
  }

  private hmacs(token: string): string[] {
    return this.secrets.map((secret) => linkTokenHmac(secret, token));
  }
}
