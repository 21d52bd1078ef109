import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from '../../src/common/net/free-port.js';

/**
 * A local stand-in for the Have I Been Pwned range API (`GET /range/<5 hex digits>`): answers, for
 * a prefix, the `SUFFIX:COUNT` lines of the passwords it was told are breached, plus a decoy line,
 * as the real API pads its answers. Records every path it was asked for.
 */
export class FakeRangeServer {
  readonly paths: string[] = [];
  private readonly breached = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<FakeRangeServer> {
    const port = await freePort();
    const server = createServer();
    const fake = new FakeRangeServer(server, port);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => fake.answer(request.url ?? '', response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The range API will say `password` was seen in `count` breaches. */
  addBreached(password: string, count: number): void {
    this.breached.set(sha1(password), count);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(path: string, response: ServerResponse): void {
    this.paths.push(path);
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(path)?.[1];
    if (prefix === undefined) {
      response.writeHead(400).end();
      return;
    }
    const lines = [...this.breached]
      .filter(([digest]) => digest.startsWith(prefix))
      .map(([digest, count]) => `${digest.slice(5)}:${count}`);
    lines.push(`${'0'.repeat(35)}:0`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  }
}

function sha1(password: string): string {
  return createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
}
