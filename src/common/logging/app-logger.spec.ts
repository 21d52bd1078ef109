import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppLogger } from './app-logger.js';

describe('AppLogger', () => {
  afterEach(() => vi.restoreAllMocks());

  function capture(levels: ('log' | 'debug')[]): string[] {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(chunk.toString());
      return true;
    });
    const logger = new AppLogger('Latchkey', { json: true, logLevels: levels });
    logger.log('InstanceLoader line', 'InstanceLoader');
    logger.log('Mapped {/x, GET} route', 'RouterExplorer');
    logger.log('applied CreateClients', 'Migrations');
    return lines;
  }

  it('keeps Nest start-up lines out of info and logs the rest', () => {
    const lines = capture(['log']);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'log', context: 'Migrations' });
  });

  it('shows the start-up lines at debug', () => {
    const contexts = capture(['log', 'debug']).map((line) => (JSON.parse(line) as { context: string; level: string }).context);
    expect(contexts).toEqual(['InstanceLoader', 'RouterExplorer', 'Migrations']);
  });
});
