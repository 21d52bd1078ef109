import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';

describe('freePort', () => {
  it('gives a port outside the ephemeral range that can be listened on at once', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(15_000);
    expect(port).toBeLessThan(32_000);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
