import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { MigrationRunner } from '../database/migration-runner.js';
import { ID_TOKEN_SET } from './key-sets.js';
import { KeysError, KeysErrorCode } from './keys.errors.js';
import { KeysService } from './keys.service.js';

/**
 * At start: makes sure the ID-token set exists (one RS256 key on the very first start; instances that
 * start together create it once), checks that its signing key opens under SECRETS_SYSTEM, and warms
 * the public JWKS. A key that does not open is logged, not fatal: the public JWKS (stored in clear)
 * and every other context keep working; signing and admin reads of that key answer 500.
 */
@Injectable()
export class KeySetBootstrapper implements OnApplicationBootstrap {
  private readonly logger = new Logger('Keys');

  constructor(
    private readonly keys: KeysService,
    private readonly migrations: MigrationRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.migrations.hasPending()) {
      this.logger.warn(`migrations are pending: the ${ID_TOKEN_SET} key set is created on first use instead of now`);
      return;
    }
    if (await this.keys.ensureSet(ID_TOKEN_SET)) this.logger.log(`created key set ${ID_TOKEN_SET} with one RS256 key`);
    try {
      await this.keys.signingKey(ID_TOKEN_SET);
    } catch (error) {
      if (!(error instanceof KeysError)) throw error;
      if (error.reason === KeysErrorCode.Undecryptable) this.logger.error(error.message);
      else this.logger.warn(error.message);
    }
    await this.keys.publicJwks();
  }
}
