import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Where `freePort` looks first: below the ephemeral ranges the kernels hand out for port 0 and for
 * the local end of outgoing connections (Linux 32768–60999, Windows and BSDs 49152–65535), so that
 * between the probe and the caller's own listen the port cannot be taken by an outgoing connection
 * (a database client, an HTTP request) or by another listener on port 0.
 */
const FIRST = 15_000;
const END = 32_000;
const ATTEMPTS = 20;

/**
 * A TCP port free on the loopback interface right now: a random one outside the ephemeral range,
 * else one the OS picks. Free only at the moment of the probe: the caller should listen on it at once.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = FIRST + randomInt(END - FIRST);
    if ((await listenOnce(port)) !== undefined) return port;
  }
  const port = await listenOnce(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** Listens on `port` and closes again; the port it got, or undefined when that port was taken. */
function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : undefined));
    });
  });
}
