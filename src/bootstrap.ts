// First: the linear-time RegExp fallback must be on before any pattern is compiled, pretenuring off
// before any module allocates and a tick object kept before the first full collection, whoever starts
// the service (main.ts, the tests, the benchmarks).
import './common/regex/linear-regexp.js';
import './common/runtime/no-pretenuring.js';
import './common/runtime/keep-tick-object-maps.js';
import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
import { NestFactory } from '@nestjs/core';
import fastifyCookie from '@fastify/cookie';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage, Server } from 'node:http';
import { LogController, type FastifyServerOptions } from 'fastify';
import { AppModule } from './app.module.js';
import { RouteAuditService } from './common/auth/route-audit.service.js';
import { removeIdleAdapterHooks } from './common/http/adapter-hooks.js';
import { HttpListeners } from './common/http/http-listeners.js';
import { AppLogger, createProcessLogger } from './common/logging/app-logger.js';
import { listenerConstraint, listenerOf, type Listener } from './common/http/listener.js';
import { sendError } from './common/errors/error-response.js';
import { installInputGuard } from './common/http/input-guard.js';
import { installRequestHooks, restrictBodyParsers } from './common/http/request-hooks.js';
import { assignedRequestIdOf } from './common/http/request-id.js';
import type { AppConfig, LogLevel } from './config/app-config.js';
import { loadConfig } from './config/config.loader.js';
import { provisionSecrets } from './config/secrets.provisioner.js';
import { packageVersion } from './config/version.js';
import { openDatabaseServer, type DatabaseServer } from './database/database-server.js';
import { MigrationRunner } from './database/migration-runner.js';
import { ShutdownState } from './health/shutdown-state.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { httpDurationHistogram } from './metrics/http-metrics.js';

export interface RunningLatchkey {
  readonly app: NestFastifyApplication;
  readonly config: AppConfig;
  readonly urls: Readonly<Record<Listener, string | undefined>>;
  readonly databaseUrl: string;
  /** Only on the first start without ADMIN_TOKENS: shown once, stored as a digest. */
  readonly generatedAdminToken: string | undefined;
  /** Graceful stop: readiness 503, drain, close listeners, pool, then the embedded database. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Logs off (tests). */
  readonly quiet?: boolean;
  /** Extra modules to mount, for tests that need routes of their own (e.g. error-shape probes). */
  readonly extraModules?: readonly Type[];
  /** The launcher's own warnings (main.ts: missing start flags), logged with the configuration's. */
  readonly warnings?: readonly string[];
}

/** Boots the whole service from an environment map (`process.env` in production, a literal in tests). */
export async function startLatchkey(
  env: Readonly<Record<string, string | undefined>>,
  options: StartOptions = {},
): Promise<RunningLatchkey> {
  const provisioned = await provisionSecrets(loadConfig(env, packageVersion()));
  const config = provisioned.config;
  const processLogger = createProcessLogger(options.quiet === true ? 'silent' : config.log.level);
  const logger = new AppLogger(processLogger);
  for (const warning of [...(options.warnings ?? []), ...provisioned.warnings]) logger.warn(warning, 'Latchkey');

  const database = await openDatabaseServer(config.database, (message) => logger.error(message));
  let app: NestFastifyApplication | undefined;
  try {
    const listeners = new HttpListeners(config.http);
    // No Nest middleware here (routes use guards and plain Fastify hooks), so middie's onRequest hook
    // would run for nothing on every request. A module that configures middleware fails at boot.
    const adapter = new FastifyAdapter({ ...fastifyOptions(config, listeners, processLogger), skipMiddie: true });
    const hooksKept = await removeIdleAdapterHooks(adapter);
    if (hooksKept !== undefined) logger.warn(`Nest's idle request hooks are kept (slower): ${hooksKept}`, 'Latchkey');
    app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database.url, options.extraModules ?? []), adapter, {
      logger,
      abortOnError: false,
    });
    const fastify = app.getHttpAdapter().getInstance();
    app.get(RouteAuditService).attach(fastify);
    app.get(RateLimiter).attach(fastify);
    installRequestHooks(fastify, httpDurationHistogram(), logsRequests(options.quiet === true ? 'silent' : config.log.level));
    restrictBodyParsers(fastify);
    installInputGuard(fastify, config.errors.exposeInternal);
    // Cookies carry the login/consent CSRF values, the remembered login session and the self-service session.
    // Parsed only where read (requestCookies), not by an onRequest hook on every route.
    await app.register(fastifyCookie, { hook: false });
    if (config.database.migrateOnStart) await app.get(MigrationRunner).runPending();
    await app.init();
    await fastify.ready();
    const urls = await listeners.listen();
    const running = app;
    return {
      app,
      config,
      urls,
      databaseUrl: database.url,
      generatedAdminToken: provisioned.generatedAdminToken,
      close: once(() => shutdown(running, listeners, database, config, logger)),
    };
  } catch (error) {
    await app?.close().catch(() => {});
    await database.stop().catch(() => {});
    throw error;
  }
}

async function shutdown(
  app: NestFastifyApplication,
  listeners: HttpListeners,
  database: DatabaseServer,
  config: AppConfig,
  logger: AppLogger,
): Promise<void> {
  const started = Date.now();
  logger.log({ msg: 'shutdown started', drainDelayMs: config.shutdown.drainDelayMs, timeoutMs: config.shutdown.timeoutMs }, 'Shutdown');
  app.get(ShutdownState).begin();
  if (config.shutdown.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdown.drainDelayMs));
  await listeners.close(config.shutdown.timeoutMs);
  await app.close();
  await database.stop();
  logger.log({ msg: 'shutdown finished', ms: Date.now() - started }, 'Shutdown');
}

function fastifyOptions(config: AppConfig, listeners: HttpListeners, logger: Logger): FastifyServerOptions<Server> {
  return {
    serverFactory: listeners.serverFactory,
    // find-my-way's typings describe an older storage contract; the runtime one is used (see listener.ts).
    // Path parameters hold ids of up to 255 characters (client_id), percent-encoded up to three times longer.
    routerOptions: { constraints: { listener: listenerConstraint as never }, maxParamLength: 1024 },
    bodyLimit: config.http.bodyLimitBytes,
    trustProxy: config.http.trustProxy,
    requestIdHeader: false,
    genReqId: assignedRequestIdOf,
    logController: new LogController({ disableRequestLogging: true }),
    loggerInstance: withoutRequestChildren(logger),
    rewriteUrl: adminPrefixRewrite,
    // Errors Fastify raises while routing (bad URL, over-long path parameter) get our error shapes too.
    frameworkErrors: (error, request, reply) => void sendError(request, reply, error, config.errors.exposeInternal),
  };
}

/**
 * Fastify asks its logger for a child on every request (bound to the request id). A pino child costs
 * about a microsecond, and a custom `childLoggerFactory` makes Fastify check the returned logger's
 * methods on every request instead; the one request line carries the request id itself, so a
 * request's child is the logger it came from. Children asked for with options (Fastify's own, made
 * once with its serializers at start) are real pino children, answered the same way in turn.
 */
function withoutRequestChildren(logger: Logger): Logger {
  const wrapped = Object.create(logger) as Logger;
  wrapped.child = ((bindings: Bindings, options?: ChildLoggerOptions) =>
    options === undefined || Object.keys(options).length === 0
      ? wrapped
      : withoutRequestChildren(logger.child(bindings, options))) as unknown as Logger['child'];
  return wrapped;
}

/** On the admin listener `/admin/x` is `/x`: the hosted-style paths that rate-limit buckets use. */
function adminPrefixRewrite(this: unknown, req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (listenerOf(req) !== 'admin' || !url.startsWith('/admin')) return url;
  const rest = url.slice('/admin'.length);
  if (rest === '') return '/';
  return rest.startsWith('/') || rest.startsWith('?') ? (rest.startsWith('?') ? `/${rest}` : rest) : url;
}

function logsRequests(level: LogLevel): boolean {
  return level === 'info' || level === 'debug' || level === 'trace';
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
