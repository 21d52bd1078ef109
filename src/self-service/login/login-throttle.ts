import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../common/crypto/digest.js';
import type { LoginThrottleConfig, SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { normalizeIdentifier } from '../../common/text/identifier-normalization.js';
import { runNamed, type NamedStatement } from '../../database/named-statements.js';
import { entityRows, type EntityRows } from '../../database/entity-rows.js';
import { LoginFailureEntity } from './entities/login-failure.entity.js';
import { SelfServiceError } from '../self-service.errors.js';

/** Which failure counts an attempt needs (see `query`), so that a caller may read them with other rows. */
export interface FailureQuery {
  readonly keys: readonly string[];
  /** Counts of windows that started at or before it are over. */
  readonly cutoff: Date;
}

/** The rows a caller read for a FailureQuery. */
export interface FailureCounts {
  readonly keys: readonly string[];
  readonly rows: readonly LoginFailureEntity[];
}

/** What `assertAllowed` saw, for `succeeded`: whether the identifier has failures to clear. */
export interface LoginAttempt {
  readonly identifier: string;
  readonly identifierHasFailures: boolean;
}

function counts(failures: EntityRows<LoginFailureEntity>): NamedStatement {
  return {
    name: 'self_service_login_failures_counts',
    text: `SELECT ${failures.columns} FROM self_service_login_failures WHERE key = ANY($1) AND window_started_at > $2`,
  };
}
const CLEAR: NamedStatement = {
  name: 'self_service_login_failures_clear',
  text: `DELETE FROM self_service_login_failures WHERE key = $1`,
};

/**
 * Failed password logins, counted in PostgreSQL (so every instance sees the same counts) per login
 * identifier (hashed) and per client address, in a fixed window of SELFSERVICE_LOGIN_FAILURE_WINDOW.
 * Past the limit, attempts are refused with 429 and `Retry-After` until the window ends — also with the
 * right password, or guessing could go on. A success clears the identifier's count. As Keycloak warns,
 * a per-account limit lets anyone lock an account for a window; the per-address limit and a short
 * window keep that bounded (docs/self-service.md).
 */
@Injectable()
export class LoginThrottle {
  private readonly config: LoginThrottleConfig;
  private readonly failures: EntityRows<LoginFailureEntity>;
  private readonly counts: NamedStatement;

  constructor(
    @InjectConfig('selfService') selfService: SelfServiceConfig,
    private readonly dataSource: DataSource,
  ) {
    this.config = selfService.loginThrottle;
    this.failures = entityRows(dataSource, LoginFailureEntity);
    this.counts = counts(this.failures);
  }

  /** The keys and window an attempt by `identifier` from `ip` is judged by (no keys when both limits are off). */
  query(identifier: string, ip: string, now = new Date()): FailureQuery {
    return { keys: this.keys(identifier, ip).map(([key]) => key), cutoff: this.cutoff(now) };
  }

  /**
   * 429 `too_many_requests` when the identifier or the address is over its limit in the current window.
   * Otherwise says whether the identifier has failures in the window, so that a success (the common
   * case: none) costs no further statement. `read` are the counts of `query(identifier, ip)` when the
   * caller read them already (the login submit reads them with its flow, a moment earlier); counts
   * read for other keys are not trusted, and read again here.
   */
  async assertAllowed(identifier: string, ip: string, read?: FailureCounts, now = new Date()): Promise<LoginAttempt> {
    const keys = this.keys(identifier, ip);
    if (keys.length === 0) return { identifier, identifierHasFailures: false };
    const names = keys.map(([key]) => key);
    const rows =
      read !== undefined && sameKeys(read.keys, names)
        ? read.rows
        : (await runNamed(this.dataSource, this.counts, [names, this.cutoff(now)])).rows.map(this.failures.toEntity);
    for (const row of rows) {
      const limit = keys.find(([key]) => key === row.key)?.[1];
      if (limit !== undefined && row.failures >= limit) {
        const endsAt = row.windowStartedAt.getTime() + this.config.windowSeconds * 1000;
        throw SelfServiceError.tooManyAttempts((endsAt - now.getTime()) / 1000);
      }
    }
    const ownKey = identifierKey(identifier);
    return { identifier, identifierHasFailures: rows.some((row) => row.key === ownKey) };
  }

  /** Counts a failed attempt for the identifier and the address, and drops counts of past windows. */
  async failed(identifier: string, ip: string, now = new Date()): Promise<void> {
    const keys = this.keys(identifier, ip).map(([key]) => key);
    if (keys.length === 0) return;
    const values = keys.map((_, index) => `($${index + 3}, $1, 1)`).join(', ');
    await this.dataSource.query(
      `INSERT INTO self_service_login_failures (key, window_started_at, failures) VALUES ${values}
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN self_service_login_failures.window_started_at > $2 THEN self_service_login_failures.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN self_service_login_failures.window_started_at > $2 THEN self_service_login_failures.window_started_at ELSE $1 END`,
      [now, this.cutoff(now), ...keys],
    );
    await this.dataSource.query(`DELETE FROM self_service_login_failures WHERE window_started_at <= $1`, [this.cutoff(now)]);
  }

  /** A successful login clears the identifier's count, if it had one (the address keeps its own). */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    if (!attempt.identifierHasFailures) return;
    await runNamed(this.dataSource, CLEAR, [identifierKey(attempt.identifier)]);
  }

  /** The counted keys with their limits; a limit of 0 is off. */
  private keys(identifier: string, ip: string): [string, number][] {
    const keys: [string, number][] = [];
    if (this.config.maxFailuresPerIdentifier > 0) keys.push([identifierKey(identifier), this.config.maxFailuresPerIdentifier]);
    if (this.config.maxFailuresPerIp > 0) keys.push([`ip:${ip}`, this.config.maxFailuresPerIp]);
    return keys;
  }

  private cutoff(now: Date): Date {
    return new Date(now.getTime() - this.config.windowSeconds * 1000);
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/** Identifiers are personal data: counted under their SHA-256 (after the same normalization as lookups). */
function identifierKey(identifier: string): string {
  return `identifier:${sha256Hex(normalizeIdentifier(identifier) ?? identifier)}`;
}
