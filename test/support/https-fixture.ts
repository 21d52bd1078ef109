import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type FixtureHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface HttpsFixture {
  /** `https://localhost:<port>`; the certificate is valid for localhost and 127.0.0.1. */
  readonly origin: string;
  /** The self-signed certificate (PEM file) to trust through OUTBOUND_CA_FILE. */
  readonly caFile: string;
  /** Serves `handler` at `path`. */
  route(path: string, handler: FixtureHandler): void;
  close(): Promise<void>;
}

import { selfSignedEcCertificate } from './openssl.js';

/**
 * An HTTPS server on the loopback interface with a self-signed certificate made at test time by the
 * `openssl` command-line tool (no npm package needed), for fetches the service makes to URLs named in
 * client metadata.
 */
export async function startHttpsFixture(): Promise<HttpsFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-tls-'));
  const { keyFile: key, certFile: cert } = selfSignedEcCertificate(dir, '/CN=localhost', ['subjectAltName=DNS:localhost,IP:127.0.0.1']);
  const routes = new Map<string, FixtureHandler>();
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (request, response) => {
    const handler = routes.get((request.url ?? '/').split('?', 1)[0]!);
    if (handler === undefined) {
      response.writeHead(404).end();
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    origin: `https://localhost:${port}`,
    caFile: cert,
    route: (path, handler) => routes.set(path, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
