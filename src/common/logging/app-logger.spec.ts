import { describe, expect, it } from 'vitest';
import type { LogLevel } from '../../config/app-config.js';
import { AppLogger, createProcessLogger } from './app-logger.js';

function capture(level: LogLevel): { logger: AppLogger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const pino = createProcessLogger(level, { write: (line: string) => written.push(line) });
  return { logger: new AppLogger(pino), lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('AppLogger', () => {
  function startUp(logger: AppLogger): void {
    logger.log('InstanceLoader line', 'InstanceLoader');
    logger.log('Mapped {/x, GET} route', 'RouterExplorer');
    logger.log('applied CreateClients', 'Migrations');
  }

  it('keeps Nest start-up lines out of info and logs the rest', () => {
    const { logger, lines } = capture('info');
    startUp(logger);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ level: 'info', context: 'Migrations', msg: 'applied CreateClients' });
  });

  it('shows the start-up lines at debug', () => {
    const { logger, lines } = capture('debug');
    startUp(logger);
    expect(lines().map((line) => line['context'])).toEqual(['InstanceLoader', 'RouterExplorer', 'Migrations']);
  });

  it("writes Nest's lines in the request lines' format: level as a word, an ISO time, msg", () => {
    const { logger, lines } = capture('info');
    logger.warn('pool is small', 'Database');
    logger.error({ msg: 'request failed', reqId: 'r1', code: 'internal_error' }, 'Errors');
    logger.error('boom', 'Error: boom\n    at x', 'ExceptionHandler');
    const [warn, failed, boom] = lines();
    expect(warn).toMatchObject({ level: 'warn', context: 'Database', msg: 'pool is small' });
    expect(new Date(String(warn!['time'])).toISOString()).toBe(warn!['time']);
    expect(failed).toMatchObject({ level: 'error', context: 'Errors', msg: 'request failed', reqId: 'r1', code: 'internal_error' });
    expect(boom).toMatchObject({ level: 'error', context: 'ExceptionHandler', msg: 'boom', stack: 'Error: boom\n    at x' });
    expect(lines().every((line) => typeof line['pid'] === 'number' && !('timestamp' in line))).toBe(true);
  });
});
