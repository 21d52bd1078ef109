import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { CookieJar } from './cookie-jar.js';
import type { HttpResponse } from './http.js';

/** A password that passes the default password policy (long, not common, not like the identifiers). */
export const GOOD_PASSWORD = 'correct horse battery staple 42';

export interface UiNodeShape {
  type: string;
  group: string;
  attributes: { name: string; type: string; value?: unknown; required?: boolean; disabled: boolean; pattern?: string };
  messages: { id: number; text: string; type: string; context?: Record<string, unknown> }[] | null;
  meta: { label?: { id: number; text: string; type: string } };
}

export interface FlowShape {
  id: string;
  type: 'api' | 'browser';
  state?: string;
  active?: string;
  forced?: boolean;
  request_url: string;
  expires_at: string;
  issued_at: string;
  ui: { action: string; method: string; messages?: { id: number; type: string; text: string }[]; nodes: UiNodeShape[] };
}

export interface SessionShape {
  id: string;
  active: boolean;
  expires_at: string;
  authenticated_at: string;
  issued_at: string;
  identity: { id: string; traits: Record<string, unknown>; schema_id: string };
}

/** Creates an identity with an e-mail and a password through the admin API; returns its id. */
export async function createPasswordIdentity(app: TestApp, email: string, password = GOOD_PASSWORD): Promise<string> {
  const created = await app.admin.post<{ id: string }>('/identities', {
    json: { traits: { email }, credentials: { password: { config: { password } } } },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** The value of a node of a flow's form. */
export function nodeValue(flow: FlowShape, name: string): unknown {
  return flow.ui.nodes.find((node) => node.attributes.name === name)?.attributes.value;
}

export function node(flow: FlowShape, name: string): UiNodeShape | undefined {
  return flow.ui.nodes.find((entry) => entry.attributes.name === name);
}

/** The ids of every message in a flow (container and nodes). */
export function messageIds(flow: FlowShape): number[] {
  return [...(flow.ui.messages ?? []), ...flow.ui.nodes.flatMap((entry) => entry.messages ?? [])].map((message) => message.id);
}

/** API login: init + submit; returns the submit's response. */
export async function apiLogin(
  app: TestApp,
  identifier: string,
  password: string,
): Promise<HttpResponse<{ session: SessionShape; session_token: string }>> {
  const init = await app.public.get<FlowShape>('/self-service/login/api');
  expect(init.status).toBe(200);
  return app.public.post(`/self-service/login?flow=${init.body.id}`, {
    json: { method: 'password', password_identifier: identifier, password },
  });
}

/** A browser: a cookie jar over the public listener, following nothing by itself. */
export class Browser {
  readonly jar = new CookieJar();

  constructor(private readonly app: TestApp) {}

  async get<T = unknown>(path: string, headers: Record<string, string> = {}): Promise<HttpResponse<T>> {
    const response = await this.app.public.get<T>(path, { headers: { ...this.jar.header(), ...headers } });
    this.jar.absorb(response.headers);
    return response;
  }

  async postForm<T = unknown>(
    path: string,
    form: Record<string, string> | URLSearchParams,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse<T>> {
    const rawBody = (form instanceof URLSearchParams ? form : new URLSearchParams(form)).toString();
    const response = await this.app.public.post<T>(path, {
      rawBody,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.jar.header(), ...headers },
    });
    this.jar.absorb(response.headers);
    return response;
  }

  /** Starts a browser flow (`/self-service/<kind>/browser`), follows the 302 to the UI and fetches the flow. */
  async startFlow(kind: string, query = ''): Promise<FlowShape> {
    const init = await this.get(`/self-service/${kind}/browser${query}`);
    expect(init.status).toBe(302);
    const id = new URL(init.headers.get('location')!).searchParams.get('flow');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const flow = await this.get<FlowShape>(`/self-service/${kind}/flows?id=${id}`);
    expect(flow.status).toBe(200);
    return flow.body;
  }

  /** Browser login through the form (CSRF token from the flow); returns the submit's response. */
  async login(identifier: string, password: string): Promise<HttpResponse> {
    const flow = await this.startFlow('login');
    return this.postForm(`/self-service/login?flow=${flow.id}`, {
      csrf_token: String(nodeValue(flow, 'csrf_token')),
      method: 'password',
      password_identifier: identifier,
      password,
    });
  }
}
