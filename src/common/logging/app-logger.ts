import type { LoggerService } from '@nestjs/common';
import { pino, stdTimeFunctions, type DestinationStream, type Level, type Logger } from 'pino';
import type { LogLevel } from '../../config/app-config.js';

/**
 * Nest's own start-up lines: one per module ("... dependencies initialized"), per controller and per
 * route. At `info` they bury the few lines an operator needs (migrations applied, warnings, the URLs),
 * so they are logged at `debug`.
 */
const START_UP_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * The one logger of the process: Fastify's request lines and Nest's own lines are both JSON lines of
 * this pino logger, so every line has the same members: `level` as a word (`info`, `warn`...), `time`
 * as an ISO 8601 timestamp, `pid`, `hostname`, `msg`, and `context` for Nest's lines.
 */
export function createProcessLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** Nest's logger interface over the process logger, with Nest's start-up chatter moved to `debug`. */
export class AppLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = contextOf(optionalParams);
    this.write(context !== undefined && START_UP_CONTEXTS.has(context) ? 'debug' : 'info', message, optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.write('error', message, optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  /** Nest passes `(message, context)`, or `(message, stack, context)` for errors. */
  private write(level: Level, message: unknown, optionalParams: readonly unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = contextOf(optionalParams);
    const stack = optionalParams.length >= 2 && typeof optionalParams[0] === 'string' ? optionalParams[0] : undefined;
    const fields = { ...(context === undefined ? {} : { context }), ...(stack === undefined ? {} : { stack }) };
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      const { msg, message: text, ...rest } = message as Record<string, unknown>;
      this.logger[level]({ ...fields, ...rest }, String(msg ?? text ?? ''));
    } else if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else {
      this.logger[level](fields, String(message));
    }
  }
}

function contextOf(optionalParams: readonly unknown[]): string | undefined {
  const last = optionalParams.at(-1);
  return typeof last === 'string' ? last : undefined;
}
