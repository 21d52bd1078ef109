import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpConfig } from '../../config/app-config.js';
import { type Listener, tagRequest } from './listener.js';
import { assignRequestId, requestIdOf } from './request-id.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The three listeners are plain Node servers feeding one Fastify instance, so every route, hook,
 * pool, cache and metric is shared; each server tags its requests with its name and the `listener`
 * route constraint keeps a route on the listeners it declares.
 */
export class HttpListeners {
  private handler: Handler | undefined;
  private readonly servers = new Map<Listener, Server>();

  constructor(private readonly config: HttpConfig) {
    const enabled: Listener[] = ['public', 'admin'];
    if (config.proxyPort !== undefined) enabled.push('proxy');
    for (const listener of enabled) {
      const server = createServer((req, res) => {
        if (listener !== 'proxy' && isLivenessProbe(req, listener)) return answerLiveness(req, res);
        tagRequest(req, listener);
        assignRequestId(req, res);
        this.handler!(req, res);
      });
      // Longer than common load balancer idle timeouts, so they close first (Fastify's own default).
      server.keepAliveTimeout = 72_000;
      this.servers.set(listener, server);
    }
  }

  /** Fastify's `serverFactory`: it hands us its request handler and gets the admin server back. */
  readonly serverFactory = (handler: Handler): Server => {
    this.handler = handler;
    return this.servers.get('admin')!;
  };

  async listen(): Promise<Record<Listener, string | undefined>> {
    const ports: Record<Listener, number | undefined> = {
      public: this.config.publicPort,
      admin: this.config.adminPort,
      proxy: this.config.proxyPort,
    };
    const urls: Record<Listener, string | undefined> = { public: undefined, admin: undefined, proxy: undefined };
    for (const [listener, server] of this.servers) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(ports[listener], this.config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const { port } = server.address() as AddressInfo;
      const host = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
      urls[listener] = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    }
    return urls;
  }

  /**
   * Stops accepting connections, lets in-flight requests finish, closes idle keep-alive sockets, and
   * cuts whatever is still open after `timeoutMs`.
   */
  async close(timeoutMs: number): Promise<void> {
    const listening = [...this.servers.values()].filter((server) => server.listening);
    const closed = Promise.all(listening.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    for (const server of listening) server.closeIdleConnections();
    const idleSweep = setInterval(() => listening.forEach((server) => server.closeIdleConnections()), 100);
    const deadline = setTimeout(() => listening.forEach((server) => server.closeAllConnections()), timeoutMs);
    try {
      await closed;
    } finally {
      clearInterval(idleSweep);
      clearTimeout(deadline);
    }
  }
}

const ALIVE_BODY = '{"status":"ok"}';

/**
 * `GET /health/alive` is answered here, before Fastify: orchestrators call it every few seconds and
 * it must touch nothing, and in Fastify it cost about 1.5 times a bare Fastify request (routing,
 * hooks, Nest's adapter hooks). It keeps its request id; it is not logged nor counted in the request
 * histogram. Other forms (HEAD, a query string) reach the Fastify route in liveness.route.ts.
 */
function isLivenessProbe(req: IncomingMessage, listener: Listener): boolean {
  return req.method === 'GET' && (req.url === '/health/alive' || (listener === 'admin' && req.url === '/admin/health/alive'));
}

function answerLiveness(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': ALIVE_BODY.length,
    'x-request-id': requestIdOf(req),
  });
  res.end(ALIVE_BODY);
}
