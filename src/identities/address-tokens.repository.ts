import { Injectable } from '@nestjs/common';
import { withTransaction } from '../database/named-statements.js';
import type { Announce } from '../database/change-notifier.js';
import { DataSource } from 'typeorm';
import { IdentityRecoveryAddressEntity } from './entities/identity-recovery-address.entity.js';
import { IdentityVerifiableAddressEntity } from './entities/identity-verifiable-address.entity.js';
import { IdentityVerificationTokenEntity } from './entities/identity-verification-token.entity.js';
import { IdentitiesError } from './identities.errors.js';
import { isForeignKeyViolation } from '../database/sql-state.js';

/** An address found by value: whose it is. */
export interface AddressOwner {
  readonly identityId: string;
  readonly addressId: string;
  /** The address as stored: where mail for it goes, never the text someone typed to find it. */
  readonly value: string;
}

/** A link token that was just used up. */
export interface RedeemedToken {
  readonly identityId: string;
  readonly addressId: string;
  readonly expiresAt: Date;
  /** Past `expiresAt` when it was redeemed: used up, but it granted nothing. */
  readonly expired: boolean;
}

interface RedeemedRow {
  identity_id: string;
  address_id: string;
  expires_at: Date;
}

/** Verified addresses get this status (Kratos' `completed`); new ones start `pending`. */
const VERIFIED_STATUS = 'completed';
/** A pending address moves to this status once a verification link was sent to it (Kratos' `sent`). */
const SENT_STATUS = 'sent';
const PENDING_STATUS = 'pending';

/**
 * Addresses looked up by value and the link tokens sent to them (`identity_recovery_tokens`,
 * `identity_verification_tokens`). A token is redeemed by one conditional UPDATE, so two requests
 * racing with the same link cannot both succeed.
 */
@Injectable()
export class AddressTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findRecoveryAddress(via: string, value: string): Promise<AddressOwner | undefined> {
    const row = await this.dataSource.manager.findOne(IdentityRecoveryAddressEntity, { where: { via, value } });
    return row === null ? undefined : { identityId: row.identityId, addressId: row.id, value: row.value };
  }

  async findVerifiableAddress(via: string, value: string): Promise<AddressOwner | undefined> {
    const row = await this.dataSource.manager.findOne(IdentityVerifiableAddressEntity, { where: { via, value } });
    return row === null ? undefined : { identityId: row.identityId, addressId: row.id, value: row.value };
  }

  /**
   * Marks the unused recovery token with one of these HMACs, issued for that flow, as used. Undefined
   * when there is none (unknown, used, or issued for another flow) or its identity is inactive (recovery
   * signs in, which an inactive identity may not). Expiry is the caller's to judge.
   */
  async redeemRecoveryToken(hmacs: readonly string[], flowId: string): Promise<RedeemedToken | undefined> {
    const [rows]: [RedeemedRow[], number] = await this.dataSource.query(
      `UPDATE identity_recovery_tokens t SET used_at = now()
        WHERE t.token_hmac = ANY($1) AND t.flow_id = $2 AND t.used_at IS NULL
          AND EXISTS (SELECT 1 FROM identities i WHERE i.id = t.identity_id AND i.state = 'active')
      RETURNING t.identity_id, t.recovery_address_id AS address_id, t.expires_at`,
      [hmacs, flowId],
    );
    return redeemed(rows, new Date());
  }

  /** The identity or its address deleted meanwhile is the same as never having existed: 404. */
  async insertVerificationToken(token: IdentityVerificationTokenEntity): Promise<void> {
    try {
      await this.dataSource.manager.insert(IdentityVerificationTokenEntity, token);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw IdentitiesError.notFound();
      throw error;
    }
  }

  /**
   * `pending` → `sent`: a verification link is on its way (a verified address keeps `completed`).
   * A change is announced in the same transaction; true when it changed.
   */
  async markVerificationSent(addressId: string, announce: Announce): Promise<boolean> {
    return withTransaction(this.dataSource, async ({ manager }) => {
      const [, affected]: [unknown, number] = await manager.query(
        `UPDATE identity_verifiable_addresses SET status = $2, updated_at = now() WHERE id = $1 AND status = $3`,
        [addressId, SENT_STATUS, PENDING_STATUS],
      );
      if (affected > 0) await announce(manager);
      return affected > 0;
    });
  }

  /**
   * Like `redeemRecoveryToken`, and in the same transaction marks the address verified when the token
   * has not expired (`verified`, `verified_at`, status `completed`).
   */
  async redeemVerificationToken(
    hmacs: readonly string[],
    flowId: string,
    announce: (identityId: string) => Announce,
  ): Promise<RedeemedToken | undefined> {
    return withTransaction(this.dataSource, async ({ manager }) => {
      const [rows]: [RedeemedRow[], number] = await manager.query(
        `UPDATE identity_verification_tokens SET used_at = now()
          WHERE token_hmac = ANY($1) AND flow_id = $2 AND used_at IS NULL
        RETURNING identity_id, verifiable_address_id AS address_id, expires_at`,
        [hmacs, flowId],
      );
      const now = new Date();
      const token = redeemed(rows, now);
      if (token !== undefined && !token.expired) {
        await manager.update(
          IdentityVerifiableAddressEntity,
          { id: token.addressId },
          { verified: true, verifiedAt: now, status: VERIFIED_STATUS, updatedAt: now },
        );
        await announce(token.identityId)(manager);
      }
      return token;
    });
  }
}

function redeemed(rows: readonly RedeemedRow[], now: Date): RedeemedToken | undefined {
  const [row] = rows;
  if (row === undefined) return undefined;
  const expiresAt = new Date(row.expires_at);
  return { identityId: row.identity_id, addressId: row.address_id, expiresAt, expired: expiresAt.getTime() <= now.getTime() };
}
