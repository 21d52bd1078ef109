import { connect, type AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { hookArraysOf, removeIdleAdapterHooks, type HookArrays } from './adapter-hooks.js';

/** A module with nothing in it: the routes under test are added on Fastify directly. */
class EmptyModule {}

function hooksOf(adapter: FastifyAdapter): HookArrays {
  return hookArraysOf(adapter.getInstance<FastifyInstance>())!;
}

/** The status code of one request written byte for byte, so that targets Node's clients refuse can be sent. */
async function statusOf(port: number, requestLine: string): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.write(`${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  await new Promise<void>((resolve, reject) => socket.on('close', () => resolve()).on('error', reject));
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]);
}

describe('removeIdleAdapterHooks', () => {
  let app: NestFastifyApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function started(adapter: FastifyAdapter): Promise<number> {
    app = await NestFactory.create<NestFastifyApplication>(EmptyModule, adapter, { logger: false });
    const fastify = adapter.getInstance<FastifyInstance>();
    let responses = 0;
    fastify.addHook('onResponse', (_request, _reply, done) => {
      responses += 1;
      done();
    });
    fastify.get('/things', async () => ({ responses }));
    await app.listen(0, '127.0.0.1');
    return (app.getHttpServer().address() as AddressInfo).port;
  }

  it("leaves only the adapter's routable-target hook, which still sends other targets to the not-found handler", async () => {
    const adapter = new FastifyAdapter({ skipMiddie: true });
    expect(await removeIdleAdapterHooks(adapter)).toBeUndefined();
    expect(hooksOf(adapter).onRequest).toHaveLength(1);
    expect(String(hooksOf(adapter).onRequest[0])).toContain('isRoutableRequestTarget');
    expect(hooksOf(adapter).onResponse).toHaveLength(0);

    const port = await started(adapter);
    expect(await statusOf(port, 'GET /things HTTP/1.1')).toBe(200);
    expect(await statusOf(port, 'GET http://localhost/things HTTP/1.1')).toBe(200);
    // Without that hook the router serves these as `/things` and `/`.
    expect(await statusOf(port, 'GET *things HTTP/1.1')).toBe(404);
    expect(await statusOf(port, 'OPTIONS * HTTP/1.1')).toBe(404);
    // Hooks added afterwards run as before.
    const response = await adapter.getInstance<FastifyInstance>().inject({ method: 'GET', url: '/things' });
    expect(response.json()).toEqual({ responses: 4 });
  });

  it('refuses, at once, every way of turning on a feature whose hook was removed', async () => {
    const adapter = new FastifyAdapter({ skipMiddie: true });
    expect(await removeIdleAdapterHooks(adapter)).toBeUndefined();
    expect(() => adapter.setOnRequestHook(() => undefined)).toThrow(/setOnRequestHook/);
    expect(() => adapter.setOnResponseHook(() => undefined)).toThrow(/setOnResponseHook/);
    expect(() => adapter.registerSecurityHook(() => undefined)).toThrow(/registerSecurityHook/);
    expect(() => adapter.applyVersionFilter(() => undefined, '1', { type: 0 } as never)).toThrow(/applyVersionFilter/);
    app = await NestFactory.create<NestFastifyApplication>(EmptyModule, adapter, { logger: false, abortOnError: false });
    expect(() => app!.enableCors()).toThrow(/enableCors/);
    const trimmed = new FastifyAdapter({ skipMiddie: true });
    await removeIdleAdapterHooks(trimmed);
    await expect(
      NestFactory.create<NestFastifyApplication>(EmptyModule, trimmed, { logger: false, return503OnClosing: true, abortOnError: false }),
    ).rejects.toThrow(/return503OnClosing/);
  });

  it('keeps every hook, and says why, when the hooks are not exactly the ones it knows', async () => {
    const extra = new FastifyAdapter({ skipMiddie: true });
    extra.getInstance<FastifyInstance>().addHook('onRequest', (_request, _reply, done) => done());
    expect(await removeIdleAdapterHooks(extra)).toMatch(/onRequest/);
    expect(hooksOf(extra).onRequest).toHaveLength(7);
    expect(hooksOf(extra).onResponse).toHaveLength(1);
    expect(() => extra.setOnRequestHook(() => undefined)).not.toThrow();
  });
});
