import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TtlCache } from '../common/cache/ttl-cache.js';
import type { Page } from '../common/pagination/page.js';
import type { SecretsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ChangeNotifier } from '../database/change-notifier.js';
import type { Client, ClientDraft, ClientWithSecret } from './client.js';
import { ClientSecretHasher } from './client-secret-hasher.js';
import { ClientValidator } from './client-validator.js';
import { ClientsError } from './clients.errors.js';
import { toClient, toColumns } from './clients.mapper.js';
import { ClientsRepository } from './clients.repository.js';
import type { CreateClientDto } from './dto/create-client.dto.js';
import type { UpdateClientDto } from './dto/update-client.dto.js';
import { ClientEntity } from './entities/client.entity.js';
import { SecretVerificationCache } from './secret-verification-cache.js';

/** ChangeNotifier topic; the key is the client_id, or `*` for everything. */
export const CLIENTS_TOPIC = 'clients';
/** 32 random bytes: 256 bits, 43 URL-safe characters. */
const GENERATED_SECRET_BYTES = 32;
const CLIENT_CACHE = { ttlMs: 60_000, maxEntries: 10_000 };
const VERIFICATION_CACHE = { ttlMs: 5 * 60_000, maxEntries: 10_000 };

/**
 * The OAuth 2.0 client registry: the clients context's API for the admin controller and for the other
 * contexts (the token endpoint authenticates clients here). Reads go through an in-process cache of
 * clients; every write announces the client_id on ChangeNotifier so that all instances drop their
 * cached copy and their remembered secret checks.
 */
@Injectable()
export class ClientsService implements OnModuleInit {
  private readonly cache = new TtlCache<string, Client>(CLIENT_CACHE);
  private readonly verifications: SecretVerificationCache;

  constructor(
    private readonly repository: ClientsRepository,
    private readonly validator: ClientValidator,
    private readonly hasher: ClientSecretHasher,
    private readonly notifier: ChangeNotifier,
    @InjectConfig('secrets') secrets: SecretsConfig,
  ) {
    this.verifications = new SecretVerificationCache(secrets.system[0] ?? randomBytes(32).toString('base64url'), VERIFICATION_CACHE);
  }

  onModuleInit(): void {
    // Dropping the remembered secret checks costs a PBKDF2 run per client: the periodic net drops
    // them only when the clients table changed.
    this.notifier.subscribe(CLIENTS_TOPIC, (key) => this.invalidate(key), this.notifier.versionOf(CLIENTS_TOPIC));
    // Made now, not by the first unknown client_id, which would otherwise cost two PBKDF2 runs.
    void this.hasher.dummyHash();
  }

  async create(input: CreateClientDto): Promise<ClientWithSecret> {
    const draft = await this.validator.validate(input);
    const secret = secretFor(draft, false);
    const now = new Date();
    const entity = Object.assign(new ClientEntity(), toColumns(draft), {
      id: draft.requestedId ?? randomUUID(),
      secretHash: secret === undefined ? null : await this.hasher.hash(secret),
      createdAt: now,
      updatedAt: now,
    });
    await this.repository.insert(entity);
    return { client: toClient(entity), secret };
  }

  async get(id: string): Promise<Client> {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const generation = this.cache.generation();
    const client = toClient(await this.repository.getById(id));
    this.cache.set(id, client, generation);
    return client;
  }

  async list(page: Page): Promise<{ items: Client[]; total: number }> {
    const { rows, total } = await this.repository.findPage(page);
    return { items: rows.map(toClient), total };
  }

  /**
   * Full replacement of a client's metadata. A supplied secret replaces the stored one and is returned
   * once; without one the stored secret stays. A client that becomes public loses its secret; one that
   * becomes confidential without having a secret gets a generated one, returned once.
   */
  async replace(id: string, input: UpdateClientDto): Promise<ClientWithSecret> {
    const existing = await this.repository.findWithSecretHash(id);
    if (existing === null) throw ClientsError.notFound();
    const draft = await this.validator.validate(input);
    if (draft.requestedId !== undefined && draft.requestedId !== id) {
      throw ClientsError.metadata('client_id', 'must be omitted or equal to the client_id in the path');
    }
    const secret = secretFor(draft, existing.secretHash !== null);
    // Only a change is written, so a concurrent rotation is not overwritten with the hash read above.
    const secretChange =
      draft.tokenEndpointAuthMethod === 'none'
        ? { secretHash: null }
        : secret === undefined
          ? {}
          : { secretHash: await this.hasher.hash(secret) };
    const columns = { ...toColumns(draft), ...secretChange, updatedAt: new Date() };
    await this.repository.update(id, columns, (transaction) => this.notifier.publishWithin(transaction, CLIENTS_TOPIC, id));
    const entity = Object.assign(new ClientEntity(), columns, { id, createdAt: existing.createdAt });
    return { client: toClient(entity), secret };
  }

  async delete(id: string): Promise<void> {
    await this.repository.delete(id, (transaction) => this.notifier.publishWithin(transaction, CLIENTS_TOPIC, id));
  }

  /**
   * Checks a client's secret (client_secret_basic / client_secret_post). Unknown client, public
   * client and wrong secret all cost one PBKDF2 run and give the same `invalid_client`. A success is
   * remembered for a few minutes (see SecretVerificationCache) so repeated token requests skip PBKDF2.
   */
  async authenticate(clientId: string, secret: string): Promise<Client> {
    if (this.verifications.has(clientId, secret)) {
      const client = await this.get(clientId).catch(() => undefined);
      if (client !== undefined) return client;
    }
    const generation = this.verifications.generation();
    const entity = await this.repository.findWithSecretHash(clientId);
    const hash = entity?.secretHash ?? (await this.hasher.dummyHash());
    const matches = await this.hasher.verify(secret, hash);
    if (!matches || entity === null || entity.secretHash === null) throw ClientsError.invalidClient();
    this.verifications.remember(clientId, secret, generation);
    return toClient(entity);
  }

  private invalidate(key: string): void {
    if (key === '*') {
      this.cache.clear();
      this.verifications.clear();
      return;
    }
    this.cache.delete(key);
    this.verifications.forget(key);
  }
}

/** The clear secret this call sets: the supplied one, or a generated one for a confidential client that has none. */
function secretFor(draft: ClientDraft, hasStoredSecret: boolean): string | undefined {
  if (draft.tokenEndpointAuthMethod === 'none') return undefined;
  if (draft.suppliedSecret !== undefined) return draft.suppliedSecret;
  return hasStoredSecret ? undefined : randomBytes(GENERATED_SECRET_BYTES).toString('base64url');
}
