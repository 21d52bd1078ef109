import { describe, expect, it } from 'vitest';
import { unixSocketDir } from './database-server.js';

describe('unixSocketDir', () => {
  it('puts the socket in the data folder when its path fits a socket address', () => {
    expect(unixSocketDir('/var/lib/latchkey/postgres', 54321)).toBe('/var/lib/latchkey/postgres');
  });

  it('answers undefined (TCP only) when the socket path would pass 107 bytes', () => {
    const fits = `/${'d'.repeat(107 - '/.s.PGSQL.54321'.length - 1)}`;
    expect(unixSocketDir(fits, 54321)).toBe(fits);
    expect(unixSocketDir(`${fits}x`, 54321)).toBeUndefined();
  });

  it('counts bytes, not characters', () => {
    const dir = `/${'é'.repeat(50)}`;
    expect(unixSocketDir(dir, 54321)).toBeUndefined();
  });
});
