import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box.js';
import type { Page } from '../common/pagination/page.js';
import type { SecretsConfig, WebhooksConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ChangeNotifier } from '../database/change-notifier.js';
import { IdentitiesService } from '../identities/index.js';
import { TuplesService } from '../tuples/index.js';
import { ConnectionsRepository } from './connections.repository.js';
import { DirectorySyncError } from './directory-sync.errors.js';
import type { CreateConnectionDto } from './dto/create-connection.dto.js';
import { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';

/** SecretBox purpose of the sealed signing secrets; the connection id is the associated data. */
const SECRET_PURPOSE = 'directory-sync/webhook-secret';
/** 32 random bytes: the HMAC key's full strength. */
const SECRET_BYTES = 32;
const DEFAULT_GROUPS_NAMESPACE = 'groups';
/** ChangeNotifier topic (key = groups namespace) announcing a new connection's namespace to every instance. */
const CONNECTIONS_TOPIC = 'directory-sync.connections';

/** A connection with the secret shown once (create, rotate). */
export interface ConnectionWithSecret {
  readonly connection: DirectoryConnectionEntity;
  readonly secret: string;
}

/** A connection ready to verify a delivery: the secrets that currently verify, newest first. */
export interface VerifyingConnection {
  readonly connection: DirectoryConnectionEntity;
  readonly secrets: readonly string[];
}

/**
 * Directory-sync connections: create, list, read, delete, rotate the signing secret. The secret
 * leaves the service once, in the create or rotate response, and is stored sealed with the system
 * secret. A connection's groups namespace is made known to the tuples context (NamespaceRegistry) at
 * create time here and on every other instance, and for every connection at boot.
 */
@Injectable()
export class ConnectionsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DirectorySync');
  private readonly box: SecretBox;
  private readonly graceMs: number;

  constructor(
    private readonly repository: ConnectionsRepository,
    private readonly identities: IdentitiesService,
    private readonly tuples: TuplesService,
    private readonly notifier: ChangeNotifier,
    @InjectConfig('secrets') secrets: SecretsConfig,
    @InjectConfig('webhooks') webhooks: WebhooksConfig,
  ) {
    this.box = new SecretBox(secrets.system, SECRET_PURPOSE);
    this.graceMs = webhooks.secretGraceSeconds * 1000;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.notifier.subscribe(CONNECTIONS_TOPIC, (namespace) => {
      if (namespace !== '*') this.tuples.ensureNamespace(namespace, 'groups_namespace');
    });
    // Before the migrations ran (MIGRATE_ON_START=false) there is no table yet: each delivery makes its
    // connection's namespace known anyway (forDelivery).
    const namespaces = await this.repository.groupsNamespaces().catch((error: unknown) => {
      this.logger.warn({
        msg: 'groups namespaces of directory-sync connections not loaded',
        error: error instanceof Error ? error.message : String(error),
      });
      return [];
    });
    for (const namespace of namespaces) this.tuples.ensureNamespace(namespace, 'groups_namespace');
  }

  async create(body: CreateConnectionDto): Promise<ConnectionWithSecret> {
    // The schema must exist (400 unknown_schema otherwise) and its id is stored as named.
    if (body.schema_id !== undefined) this.identities.schemaDocument(body.schema_id);
    const groupsNamespace = body.groups_namespace ?? DEFAULT_GROUPS_NAMESPACE;
    this.ensureNamespace(groupsNamespace);
    const now = new Date();
    const id = randomUUID();
    const secret = newSecret();
    const connection = Object.assign(new DirectoryConnectionEntity(), {
      id,
      name: body.name,
      schemaId: body.schema_id ?? null,
      groupsNamespace,
      onDeactivate: body.on_deactivate ?? 'deactivate',
      secretSealed: this.box.seal(secret, id),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.repository.insert(connection, (transaction) => this.notifier.publishWithin(transaction, CONNECTIONS_TOPIC, groupsNamespace));
    return { connection, secret };
  }

  list(page: Page): Promise<{ rows: DirectoryConnectionEntity[]; total: number }> {
    return this.repository.findPage(page);
  }

  get(id: string): Promise<DirectoryConnectionEntity> {
    return this.repository.get(id);
  }

  /** Its links, groups, event log and replay records go with it; identities and tuples stay. */
  delete(id: string): Promise<void> {
    return this.repository.delete(id);
  }

  /**
   * A new secret, shown once. The one it replaces keeps verifying for WEBHOOKS_SECRET_GRACE, so the
   * directory can be updated without losing events; a secret still in its grace period is dropped.
   */
  async rotateSecret(id: string): Promise<ConnectionWithSecret> {
    const sealed = await this.repository.getSealed(id);
    const now = new Date();
    const secret = newSecret();
    const previousExpiresAt = this.graceMs === 0 ? null : new Date(now.getTime() + this.graceMs);
    const previousSealed = previousExpiresAt === null ? null : sealed.secretSealed;
    await this.repository.rotate(id, this.box.seal(secret, id), previousSealed, previousExpiresAt, now);
    const connection = Object.assign(sealed, { previousSecretExpiresAt: previousExpiresAt, updatedAt: now });
    return { connection, secret };
  }

  /** The connection and the secrets that verify its deliveries now; 404 when it does not exist. */
  async forDelivery(id: string, now: Date): Promise<VerifyingConnection> {
    const sealed = await this.repository.getSealed(id);
    this.tuples.ensureNamespace(sealed.groupsNamespace, 'groups_namespace');
    const secrets = [this.box.openString(sealed.secretSealed, id)];
    if (sealed.previousSecretSealed !== null && sealed.previousSecretExpiresAt !== null && sealed.previousSecretExpiresAt > now) {
      secrets.push(this.box.openString(sealed.previousSecretSealed, id));
    }
    return { connection: sealed, secrets };
  }

  private ensureNamespace(namespace: string): void {
    try {
      this.tuples.ensureNamespace(namespace, 'groups_namespace');
    } catch (error) {
      throw DirectorySyncError.invalidRequest('groups_namespace', error instanceof Error ? error.message : 'cannot be used.');
    }
  }
}

function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}
