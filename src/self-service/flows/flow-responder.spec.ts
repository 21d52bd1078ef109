import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.loader.js';
import { SelfServiceError } from '../self-service.errors.js';
import type { FlowOutcome } from './flow-outcome.js';
import { FlowResponder } from './flow-responder.js';
import { selfServiceRequestOf } from './self-service-edge.js';
import { setCookie, type SelfServiceRequest } from './self-service-request.js';

const responder = new FlowResponder(loadConfig({}, '1.0.0').cookies);

/** A Fastify whose one route answers what `decide` returns (or throws), through the responder. */
async function server(decide: (input: SelfServiceRequest) => Promise<FlowOutcome>): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(fastifyCookie, { hook: false });
  app.setErrorHandler((error: unknown, _request, reply) => {
    void reply.status(error instanceof SelfServiceError ? 499 : 500).send({ error: 'thrown' });
  });
  app.get('/', (request, reply) => {
    const input = selfServiceRequestOf(request);
    return responder.answer(request, reply, input, decide(input));
  });
  await app.ready();
  return app;
}

const JSON_ACCEPT = { accept: 'application/json' };
const HTML_ACCEPT = { accept: 'text/html,application/xhtml+xml' };

describe('FlowResponder', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('a flow: API flows and SPAs get the body with its status, navigating browsers a 302 to the UI', async () => {
    const shown = (type: 'api' | 'browser'): FlowOutcome => ({
      kind: 'flow',
      type,
      status: 400,
      body: { id: 'f' },
      uiUrl: 'https://ui/login?flow=f',
    });
    app = await server(async () => shown('api'));
    const api = await app.inject({ method: 'GET', url: '/', headers: HTML_ACCEPT });
    expect([api.statusCode, api.json(), api.headers['cache-control']]).toEqual([400, { id: 'f' }, 'no-store']);
    await app.close();
    app = await server(async () => shown('browser'));
    const spa = await app.inject({ method: 'GET', url: '/', headers: JSON_ACCEPT });
    expect([spa.statusCode, spa.json()]).toEqual([400, { id: 'f' }]);
    const browser = await app.inject({ method: 'GET', url: '/', headers: HTML_ACCEPT });
    expect([browser.statusCode, browser.headers.location]).toEqual([302, 'https://ui/login?flow=f']);
  });

  it('a restart: API flows get a 302 to the fresh flow with it as the body, browsers a 302 to the UI', async () => {
    const restarted = (type: 'api' | 'browser'): FlowOutcome => ({
      kind: 'restarted',
      type,
      apiLocation: 'https://issuer/self-service/login/flows?id=g',
      body: { id: 'g' },
      uiUrl: 'https://ui/login?flow=g',
    });
    app = await server(async () => restarted('api'));
    const api = await app.inject({ method: 'GET', url: '/', headers: JSON_ACCEPT });
    expect([api.statusCode, api.headers.location, api.json()]).toEqual([302, 'https://issuer/self-service/login/flows?id=g', { id: 'g' }]);
    await app.close();
    app = await server(async () => restarted('browser'));
    const browser = await app.inject({ method: 'GET', url: '/', headers: JSON_ACCEPT });
    expect([browser.statusCode, browser.headers.location]).toEqual([302, 'https://ui/login?flow=g']);
  });

  it('a completion: the API body, the SPA body, or a 302; the cookies decided on the way go with it', async () => {
    app = await server(async (input) => {
      setCookie(input, { name: 'service_session', value: 'token', maxAgeSeconds: 60 });
      return { kind: 'completed', type: 'browser', apiBody: { api: true }, spaBody: { spa: true }, location: 'https://app/' };
    });
    const spa = await app.inject({ method: 'GET', url: '/', headers: JSON_ACCEPT });
    expect([spa.statusCode, spa.json()]).toEqual([200, { spa: true }]);
    const browser = await app.inject({ method: 'GET', url: '/', headers: HTML_ACCEPT });
    expect([browser.statusCode, browser.headers.location]).toEqual([302, 'https://app/']);
    expect(String(browser.headers['set-cookie'])).toMatch(/^service_session=token;/);
  });

  it('a refusal: thrown for API flows and SPAs, a 302 for navigating browsers', async () => {
    const refused: FlowOutcome = {
      kind: 'refused',
      type: 'browser',
      error: SelfServiceError.refreshRequired('https://login'),
      location: 'https://login',
    };
    app = await server(async () => refused);
    expect((await app.inject({ method: 'GET', url: '/', headers: JSON_ACCEPT })).statusCode).toBe(499);
    const browser = await app.inject({ method: 'GET', url: '/', headers: HTML_ACCEPT });
    expect([browser.statusCode, browser.headers.location]).toEqual([302, 'https://login']);
  });

  it('an error keeps the cookies decided before it', async () => {
    app = await server(async (input) => {
      setCookie(input, { name: 'service_csrf_token', value: 'c' });
      throw SelfServiceError.csrf();
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(499);
    expect(String(response.headers['set-cookie'])).toMatch(/^service_csrf_token=c;/);
  });

  it('calls onSent once the answer has left', async () => {
    let sent = 0;
    app = await server(async () => ({ kind: 'json', status: 200, body: {}, onSent: () => void sent++ }));
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    expect(sent).toBe(1);
  });
});
