import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import type { HttpConfig } from '../../config/app-config.js';
import { type Listener, requestClassFor } from './listener.js';
import { ResponseWithRequestId } from './request-id.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Set on a socket once it carried a request: before that, a client may be about to send one. */
const SERVED = Symbol('served');
type TrackedSocket = Socket & { [SERVED]?: true; _httpMessage?: unknown };

/** How long a connection accepted before the listeners closed may take to send its first request. */
const FIRST_REQUEST_GRACE_MS = 2000;
/** The listeners close only after going this long without a new connection (see `close`)... */
const QUIET_MS = 100;
/** ...or after waiting this long for such a pause, when clients keep connecting. */
const MAX_QUIET_WAIT_MS = 1000;

/**
 * The three listeners are plain Node servers feeding one Fastify instance, so every route, hook,
 * pool, cache and metric is shared; each server builds its requests from its listener's class
 * (`requestClassFor`), the `listener` route constraint keeps a route on the listeners it declares,
 * and every response carries the request's id (ResponseWithRequestId).
 */
export class HttpListeners {
  private handler: Handler | undefined;
  private readonly servers = new Map<Listener, Server>();
  private readonly sockets = new Set<TrackedSocket>();
  private closing = false;
  private lastConnectionAt = 0;

  constructor(private readonly config: HttpConfig) {
    const enabled: Listener[] = ['public', 'admin'];
    if (config.proxyPort !== undefined) enabled.push('proxy');
    for (const listener of enabled) {
      const options = { IncomingMessage: requestClassFor(listener), ServerResponse: ResponseWithRequestId };
      const server = createServer(options, (req, res) => {
        (req.socket as TrackedSocket)[SERVED] = true;
        // While closing, each response ends its connection instead of keeping it alive.
        if (this.closing) res.shouldKeepAlive = false;
        if (listener !== 'proxy' && isLivenessProbe(req, listener)) return answerLiveness(res);
        this.handler!(req, res);
      });
      // Longer than common load balancer idle timeouts, so they close first (Fastify's own default).
      server.keepAliveTimeout = 72_000;
      server.on('connection', (socket: TrackedSocket) => {
        this.sockets.add(socket);
        this.lastConnectionAt = Date.now();
        socket.once('close', () => this.sockets.delete(socket));
      });
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
   * Stops accepting connections and lets every request already sent be answered: responses from now
   * on close their connection, keep-alive connections are closed while idle, and a connection that
   * was accepted but has not sent its request yet gets FIRST_REQUEST_GRACE_MS to send it. (Node's own
   * `server.close()` would destroy those at once, resetting requests a client had already written.)
   * Closing a listening socket resets the connections still in its accept queue, so it closes only
   * once no connection arrived for QUIET_MS (waiting MAX_QUIET_WAIT_MS at most). Whatever is still
   * open after `timeoutMs` is cut.
   */
  async close(timeoutMs: number): Promise<void> {
    this.closing = true;
    await this.quiet(Date.now() + Math.min(timeoutMs, MAX_QUIET_WAIT_MS));
    const listening = [...this.servers.values()].filter((server) => server.listening);
    const closed = Promise.all(
      listening.map((server) => new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()))),
    );
    const graceEnds = Date.now() + FIRST_REQUEST_GRACE_MS;
    const sweep = (): void => {
      for (const socket of this.sockets) {
        const idle = socket._httpMessage === undefined || socket._httpMessage === null;
        if (idle && (socket[SERVED] === true || Date.now() >= graceEnds)) socket.destroy();
      }
    };
    sweep();
    const idleSweep = setInterval(sweep, 50);
    const deadline = setTimeout(() => listening.forEach((server) => server.closeAllConnections()), timeoutMs);
    try {
      await closed;
    } finally {
      clearInterval(idleSweep);
      clearTimeout(deadline);
    }
  }

  /**
   * Resolves once no connection was accepted for QUIET_MS, or at `deadline`. The last check is made
   * after an event-loop turn, which accepts whatever waited in the queue while the process was busy.
   */
  private async quiet(deadline: number): Promise<void> {
    for (;;) {
      const wait = this.lastConnectionAt + QUIET_MS - Date.now();
      if (wait > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      const seen = this.lastConnectionAt;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.lastConnectionAt === seen || Date.now() >= deadline) return;
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

function answerLiveness(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': ALIVE_BODY.length,
  });
  res.end(ALIVE_BODY);
}
