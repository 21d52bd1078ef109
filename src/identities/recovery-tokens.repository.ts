import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { IdentityRecoveryTokenEntity } from './entities/identity-recovery-token.entity.js';
import { IdentitiesError } from './identities.errors.js';
import { isForeignKeyViolation } from '../database/sql-state.js';

/** The `identity_recovery_tokens` table: written here, redeemed by the self-service recovery flow. */
@Injectable()
export class RecoveryTokensRepository {
  constructor(@InjectRepository(IdentityRecoveryTokenEntity) private readonly rows: Repository<IdentityRecoveryTokenEntity>) {}

  /** The identity or its address deleted meanwhile is the same as never having existed: 404. */
  async insert(token: IdentityRecoveryTokenEntity): Promise<void> {
    try {
      await this.rows.insert(token);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw IdentitiesError.notFound();
      throw error;
    }
  }
}
