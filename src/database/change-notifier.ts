import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { DATABASE_URL } from './database.tokens.js';

const CHANNEL = 'latchkey_changes';
const RECONNECT_DELAY_MS = 1000;
const ALL = '*';

type Listener = (key: string) => void;

/**
 * Reads the version of what a subscriber caches; it must change whenever the cached data may have,
 * SQL written by hand included. `versionOf(topic)` is the one the tree uses.
 */
export type VersionProbe = () => Promise<string>;

interface Subscription {
  readonly listener: Listener;
  readonly probe: VersionProbe | undefined;
  /** What the probe read at the last tick; `undefined` before the first or after a failed read. */
  version: string | undefined;
}

/**
 * Runs a statement inside the transaction of a write: a `Transaction` of `withTransaction`, or its
 * TypeORM `manager`.
 */
export interface TransactionQueries {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/** Announces a change on the write's transaction; repositories call it just before they commit. */
export type Announce = (transaction: TransactionQueries) => Promise<void>;

interface Announcement {
  readonly topic: string;
  readonly key: string;
  /** The announcing instance, which heard it already; absent when every instance should hear it. */
  readonly from?: string;
}

/**
 * Cross-instance cache invalidation over PostgreSQL LISTEN/NOTIFY. A context announces `topic` +
 * `key` for a change; every instance (this one included) calls the listeners of that topic.
 *
 * Announce inside the write's transaction (`publishWithin`): PostgreSQL delivers a NOTIFY when the
 * transaction commits and drops it when it rolls back, so no committed change goes unannounced, even
 * if the connection is cut or this instance dies right after the commit.
 *
 * Announcements can still be missed by a listener (its connection was down or silently broken), or
 * never made (a row changed in SQL by hand). Two nets bound the staleness that leaves: after the
 * listening connection drops and comes back, subscribers get `*`; and every `CACHE_MAX_STALENESS`
 * each subscriber gets `*` anyway, so nothing cached outlives that period. A subscriber whose cache
 * is costly to rebuild passes a version probe: the periodic net then reads the version (one short
 * query) and drops that cache only when it moved.
 */
@Injectable()
export class ChangeNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeNotifier');
  private readonly listeners = new Map<string, Set<Subscription>>();
  /** Tells this instance's own notifications apart; several instances may share one process (tests). */
  private readonly instanceId = randomUUID();
  private client: pg.Client | undefined;
  private closed = false;
  private resync: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(
    @Inject(DATABASE_URL) private readonly url: string,
    @InjectConfig('database') private readonly database: DatabaseConfig,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.connect();
    this.resync = setInterval(() => void this.resynchronise(), this.database.cacheMaxStalenessSeconds * 1000).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.resync);
    await this.client?.end().catch(() => {});
  }

  /**
   * Calls `listener` with the key of every change of `topic`, and with `*` when anything may have
   * changed. With a `probe` the periodic net calls it with `*` only when the probed version moved (or
   * could not be read); the subscriber must then not store what it read before an invalidation (see
   * TtlCache's generations), since the net will not drop it a second time.
   */
  subscribe(topic: string, listener: Listener, probe?: VersionProbe): void {
    const set = this.listeners.get(topic) ?? new Set<Subscription>();
    set.add({ listener, probe, version: undefined });
    this.listeners.set(topic, set);
  }

  /**
   * The version of `topic` in `cache_versions`, which a trigger bumps on every statement that writes
   * the topic's tables: a probe for topics whose tables have that trigger.
   */
  versionOf(topic: string): VersionProbe {
    return async () => {
      const rows = (await this.dataSource.query('SELECT version FROM cache_versions WHERE topic = $1', [topic])) as Array<{
        version: string;
      }>;
      return rows[0]?.version ?? '0';
    };
  }

  /**
   * The periodic net: every subscriber without a probe gets `*`; one with a probe gets it when its
   * version moved since the last tick, or could not be read. Resolves when the tick is done (one at a
   * time: a call during a tick waits for that tick).
   */
  resynchronise(): Promise<void> {
    this.ticking ??= this.tick().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /**
   * Announces a change inside the transaction that makes it (see the class comment). This instance's
   * subscribers hear it at once, so the writer reads its own write, and once more when the commit is
   * delivered back over LISTEN, which drops anything a concurrent reader cached from before the commit.
   */
  async publishWithin(transaction: TransactionQueries, topic: string, key: string): Promise<void> {
    await transaction.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic, key } satisfies Announcement)]);
    this.deliver(topic, key);
  }

  /**
   * Announces a change on its own, after it committed. Prefer `publishWithin`: should this
   * announcement fail (pool exhausted, connection cut, the instance stopping), only the periodic
   * resynchronisation bounds how long the other instances stay stale.
   */
  async publish(topic: string, key: string): Promise<void> {
    this.deliver(topic, key);
    await this.dataSource
      .query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic, key, from: this.instanceId } satisfies Announcement)])
      .catch((error: Error) => this.logger.warn(`could not announce a change of ${topic}: ${error.message}`));
  }

  private deliver(topic: string, key: string): void {
    for (const { listener } of this.listeners.get(topic) ?? []) listener(key);
  }

  private dropEverything(): void {
    for (const topic of this.listeners.keys()) this.deliver(topic, ALL);
  }

  private async tick(): Promise<void> {
    const probed: Promise<void>[] = [];
    for (const subscriptions of this.listeners.values()) {
      for (const subscription of subscriptions) {
        if (subscription.probe === undefined) subscription.listener(ALL);
        else probed.push(this.probe(subscription, subscription.probe));
      }
    }
    await Promise.all(probed);
  }

  private async probe(subscription: Subscription, probe: VersionProbe): Promise<void> {
    const version = await probe().catch(() => undefined);
    if (version === undefined || version !== subscription.version) subscription.listener(ALL);
    subscription.version = version;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'latchkey-notify' });
    client.on('error', (error) => this.reconnect(client, error));
    client.on('end', () => this.reconnect(client));
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      const { topic, key, from } = JSON.parse(message.payload) as Announcement;
      if (from !== this.instanceId) this.deliver(topic, key);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private reconnect(client: pg.Client, error?: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    if (error !== undefined) this.logger.warn(`change notifications interrupted: ${error.message}`);
    const retry = (): void => {
      if (this.closed) return;
      this.connect()
        .then(() => this.dropEverything())
        .catch(() => setTimeout(retry, RECONNECT_DELAY_MS).unref());
    };
    setTimeout(retry, RECONNECT_DELAY_MS).unref();
  }
}
