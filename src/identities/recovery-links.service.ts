import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { SecretsConfig, UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { CreateRecoveryLinkDto } from './dto/create-recovery-link.dto.js';
import { IdentityRecoveryTokenEntity } from './entities/identity-recovery-token.entity.js';
import { IdentitiesError } from './identities.errors.js';
import { IdentitiesRepository } from './identities.repository.js';
import { linkTokenHmac, newLinkToken } from './link-token.js';
import { recoveryLinkLifetimeMs } from './recovery-link-lifetime.js';
import { RecoveryTokensRepository } from './recovery-tokens.repository.js';

export interface RecoveryLink {
  readonly link: string;
  readonly expiresAt: Date;
}

/**
 * Admin recovery links (Kratos' `createRecoveryLink`): a 256-bit random token for the identity's first
 * recovery address, stored only as HMAC-SHA256 under the first system secret, in a link of the form
 * `{issuer}/self-service/recovery?flow=<id>&token=<token>`. The recovery flow redeems it.
 */
@Injectable()
export class RecoveryLinksService {
  private readonly issuer: string;
  private readonly secret: string;

  constructor(
    @InjectConfig('urls') urls: UrlsConfig,
    @InjectConfig('secrets') secrets: SecretsConfig,
    private readonly identities: IdentitiesRepository,
    private readonly tokens: RecoveryTokensRepository,
  ) {
    this.issuer = urls.issuer;
    const [secret] = secrets.system;
    if (secret === undefined) throw new Error('SECRETS_SYSTEM is empty: secrets must be provisioned before the app starts');
    this.secret = secret;
  }

  async create(body: CreateRecoveryLinkDto): Promise<RecoveryLink> {
    const lifetimeMs = recoveryLinkLifetimeMs(body.expires_in);
    const record = await this.identities.get(body.identity_id);
    const [address] = record.recoveryAddresses;
    if (address === undefined) throw IdentitiesError.noRecoveryAddress();

    const token = newLinkToken();
    const now = new Date();
    const entity = Object.assign(new IdentityRecoveryTokenEntity(), {
      id: randomUUID(),
      identityId: record.identity.id,
      recoveryAddressId: address.id,
      tokenHmac: linkTokenHmac(this.secret, token),
      flowId: randomUUID(),
      expiresAt: new Date(now.getTime() + lifetimeMs),
      usedAt: null,
      createdAt: now,
    });
    await this.tokens.insert(entity);
    const query = new URLSearchParams({ flow: entity.flowId, token });
    return { link: `${this.issuer}/self-service/recovery?${query.toString()}`, expiresAt: entity.expiresAt };
  }
}
