import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { DATABASE_URL } from './database.tokens.js';

const CHANNEL = 'latchkey_changes';
const RECONNECT_DELAY_MS = 1000;

type Listener = (key: string) => void;

/**
 * Cross-instance cache invalidation over PostgreSQL LISTEN/NOTIFY. A context publishes
 * `topic` + `key` after a committed change; every instance (this one included) calls the listeners of
 * that topic. While the listening connection is down, listeners are told with key `*` on reconnect so
 * they drop everything they cached meanwhile.
 */
@Injectable()
export class ChangeNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeNotifier');
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Tells this instance's own notifications apart; several instances may share one process (tests). */
  private readonly instanceId = randomUUID();
  private client: pg.Client | undefined;
  private closed = false;

  constructor(
    @Inject(DATABASE_URL) private readonly url: string,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => {});
  }

  subscribe(topic: string, listener: Listener): void {
    const set = this.listeners.get(topic) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(topic, set);
  }

  /**
   * Announces a change; call after the change is committed. The announcement goes through the
   * connection pool, not the listening connection, so it reaches the other instances even while this
   * instance's listener is reconnecting.
   */
  async publish(topic: string, key: string): Promise<void> {
    this.deliver(topic, key);
    await this.dataSource
      .query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ topic, key, from: this.instanceId })])
      .catch((error: Error) => this.logger.warn(`could not announce a change of ${topic}: ${error.message}`));
  }

  private deliver(topic: string, key: string): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(key);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'latchkey-notify' });
    client.on('error', (error) => this.reconnect(client, error));
    client.on('end', () => this.reconnect(client));
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      const { topic, key, from } = JSON.parse(message.payload) as { topic: string; key: string; from: string };
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
        .then(() => {
          for (const topic of this.listeners.keys()) this.deliver(topic, '*');
        })
        .catch(() => setTimeout(retry, RECONNECT_DELAY_MS).unref());
    };
    setTimeout(retry, RECONNECT_DELAY_MS).unref();
  }
}
