import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { assignedRequestIdOf, requestIdOf, ResponseWithRequestId } from './request-id.js';

const request = (headers: Record<string, string> = {}): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it('keeps a sane caller id', () => {
    expect(requestIdOf(request({ 'x-request-id': 'trace-abc.123:4' }))).toBe('trace-abc.123:4');
  });

  it('generates distinct random UUIDs otherwise', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => requestIdOf(request(index % 2 === 0 ? {} : { 'x-request-id': 'bad id' })));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID);
    // Random, not counted: no two ids share their first twelve hex digits (a chance of about 3e-9).
    expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBe(ids.length);
  });

  it('is made once per request and kept', () => {
    const req = request();
    const id = assignedRequestIdOf(req);
    expect(id).toMatch(UUID);
    expect(assignedRequestIdOf(req)).toBe(id);
  });
});

describe('ResponseWithRequestId', () => {
  let server: Server | undefined;
  async function closeServer(): Promise<void> {
    const closing = server;
    server = undefined;
    if (closing !== undefined) await new Promise((resolve) => closing.close(resolve));
  }
  afterEach(closeServer);

  /** Serves every request with `answer` on a server built with the response class; returns the raw head of one response. */
  async function headOf(answer: (req: IncomingMessage, res: ServerResponse) => void, headers: Record<string, string> = {}) {
    server = createServer({ ServerResponse: ResponseWithRequestId }, answer);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new Promise<{ status: number; id: string | undefined; ids: string[] }>((resolve, reject) => {
      httpRequest({ port, host: '127.0.0.1', path: '/', headers, agent: false }, (response) => {
        response.resume();
        response.once('end', () => {
          const ids = response.rawHeaders.filter(
            (_, index) => index % 2 === 0 && response.rawHeaders[index].toLowerCase() === 'x-request-id',
          );
          resolve({ status: response.statusCode!, id: response.headers['x-request-id'] as string | undefined, ids });
        });
      })
        .once('error', reject)
        .end();
    });
  }

  it('adds the id to a head given as an object, without changing the caller object', async () => {
    const shared = Object.freeze({ 'content-type': 'text/plain' });
    let assigned: string | undefined;
    const head = await headOf((req, res) => {
      assigned = assignedRequestIdOf(req);
      res.writeHead(201, shared).end('x');
    });
    expect(head.status).toBe(201);
    expect(head.id).toBe(assigned);
    expect(head.ids).toHaveLength(1);
    expect(Object.keys(shared)).toEqual(['content-type']);
  });

  it('adds it with a reason phrase, after setHeader, to an array head and to an implicit head', async () => {
    const answers: Array<(req: IncomingMessage, res: ServerResponse) => void> = [
      (_req, res) => res.writeHead(404, 'Gone Fishing', { 'content-type': 'text/plain' }).end(),
      (_req, res) => {
        res.setHeader('content-type', 'text/plain');
        res.writeHead(202, { 'cache-control': 'no-store' }).end();
      },
      (_req, res) => res.writeHead(200, ['content-type', 'text/plain']).end(),
      (_req, res) => {
        res.statusCode = 204;
        res.end();
      },
    ];
    const statuses = [];
    for (const answer of answers) {
      const head = await headOf(answer, { 'x-request-id': 'trace-7' });
      statuses.push(head.status);
      expect(head.id).toBe('trace-7');
      expect(head.ids).toHaveLength(1);
      await closeServer();
    }
    expect(statuses).toEqual([404, 202, 200, 204]);
  });

  it('leaves an id the writer set itself', async () => {
    for (const answer of [
      (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, { 'x-request-id': 'own' }).end(),
      (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, 'OK', { 'X-Request-ID': 'own' }).end(),
      (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, ['X-Request-Id', 'own']).end(),
      (_req: IncomingMessage, res: ServerResponse) => {
        res.setHeader('X-Request-Id', 'own');
        res.end();
      },
    ]) {
      const head = await headOf(answer);
      expect(head.id).toBe('own');
      expect(head.ids).toHaveLength(1);
      await closeServer();
    }
  });
});
