import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

/** One request the receiver got, body read in full. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body parsed as a form (empty when it is not one). */
  readonly form: URLSearchParams;
}

/** A request whose answer the test gives later (`answer`), to see what the sender does meanwhile. */
export interface HeldRequest {
  readonly request: ReceivedRequest;
  /** Whether the sender still waits on the connection (it has not given up and closed it). */
  isOpen(): boolean;
  answer(status: number): void;
}

/**
 * A relying party's back-channel logout endpoint, as a plain node:http server on a loopback port:
 * records every request by path, answers 200 unless told otherwise, or holds the answer for the test.
 * The service reaches it only with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.
 */
export class LogoutReceiver {
  private readonly requests = new Map<string, ReceivedRequest[]>();
  private readonly held = new Map<string, HeldRequest[]>();
  private readonly behaviours = new Map<string, number | 'hold'>();
  private readonly waiters: Array<() => void> = [];
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => this.record(request.method ?? '', request.url ?? '/', request.headers, Buffer.concat(chunks), response));
  });
  origin = '';

  static async start(): Promise<LogoutReceiver> {
    const receiver = new LogoutReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const address = receiver.server.address();
    receiver.origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    return receiver;
  }

  /** `origin + path`. */
  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** How requests to `path` are answered: a status (200 by default), or held until the test answers. */
  respond(path: string, behaviour: number | 'hold'): void {
    this.behaviours.set(path, behaviour);
  }

  /** Requests to `path` so far. */
  received(path: string): ReceivedRequest[] {
    return [...(this.requests.get(path) ?? [])];
  }

  /** Resolves once `count` requests to `path` have arrived (the test timeout bounds the wait). */
  async waitFor(path: string, count = 1): Promise<ReceivedRequest[]> {
    while ((this.requests.get(path)?.length ?? 0) < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.received(path);
  }

  /** Resolves with the first held request to `path` once it has arrived. */
  async waitForHeld(path: string): Promise<HeldRequest> {
    while ((this.held.get(path)?.length ?? 0) === 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.held.get(path)![0]!;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(method: string, url: string, headers: IncomingHttpHeaders, body: Buffer, response: ServerResponse): void {
    const path = url.split('?', 1)[0]!;
    const text = body.toString('utf8');
    const isForm = (headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const request: ReceivedRequest = { method, path, headers, body: text, form: new URLSearchParams(isForm ? text : '') };
    this.requests.set(path, [...(this.requests.get(path) ?? []), request]);
    const behaviour = this.behaviours.get(path) ?? 200;
    if (behaviour === 'hold') {
      const held: HeldRequest = {
        request,
        isOpen: () => !response.destroyed && !response.socket?.destroyed,
        answer: (status) => void response.writeHead(status, { 'cache-control': 'no-store' }).end(),
      };
      this.held.set(path, [...(this.held.get(path) ?? []), held]);
    } else {
      response.writeHead(behaviour, { 'cache-control': 'no-store' }).end();
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}
