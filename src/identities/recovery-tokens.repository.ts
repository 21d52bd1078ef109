import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, type Repository } from 'typeorm';
import { IdentityRecoveryTokenEntity } from './entities/identity-recovery-token.entity.js';
import { IdentitiesError } from './identities.errors.js';

const FOREIGN_KEY_VIOLATION = '23503';

/** The `identity_recovery_tokens` table: written here, redeemed by the self-service recovery flow. */
@Injectable()
export class RecoveryTokensRepository {
  constructor(@InjectRepository(IdentityRecoveryTokenEntity) private readonly rows: Repository<IdentityRecoveryTokenEntity>) {}

  /** The identity or its address deleted meanwhile is the same as never having existed: 404. */
  async insert(token: IdentityRecoveryTokenEntity): Promise<void> {
    try {
      await this.rows.insert(token);
    } catch (error) {
      const code = error instanceof QueryFailedError ? (error.driverError as { code?: unknown }).code : undefined;
      if (code === FOREIGN_KEY_VIOLATION) throw IdentitiesError.notFound();
      throw error;
    }
  }
}
