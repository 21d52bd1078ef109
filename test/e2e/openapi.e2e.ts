import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiDocumentBuilder } from '../../src/api-description/openapi-document.builder.js';
import { OPERATIONS, operationKey } from '../../src/api-description/operations.js';
import { RouteAuditService } from '../../src/common/auth/route-audit.service.js';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { apiLogin, createPasswordIdentity, GOOD_PASSWORD } from '../support/self-service.js';

/** The OpenAPI document: served, valid, complete both ways, and true of real answers. */

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> } & { servers?: unknown }>
  >;
  components: { schemas: Record<string, object> };
};

const NAMESPACES = JSON.stringify([{ name: 'files', id: 1 }]);

let app: TestApp;
let document: Document;
let ajv: Ajv2020;

beforeAll(async () => {
  app = await bootApp({ NAMESPACES });
  const served = await app.admin.get<Document>('/openapi.json');
  expect(served.status).toBe(200);
  document = served.body;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'openapi', components: document.components } as object);
});

afterAll(async () => {
  await app?.close();
});

/** The documented operation of a concrete request path. */
function operationOf(method: string, path: string): Document['paths'][string][string] {
  const bare = path.split('?', 1)[0]!;
  for (const [template, item] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    if (pattern.test(bare) && item[method.toLowerCase()] !== undefined) return item[method.toLowerCase()]!;
  }
  throw new Error(`${method} ${bare} is not documented`);
}

/** Asserts a real answer is what the document says: its status is documented and its body fits the schema. */
function expectDocumented(method: string, path: string, response: HttpResponse): void {
  const operation = operationOf(method, path);
  const documented = operation.responses[String(response.status)] ?? (response.status >= 400 ? operation.responses['default'] : undefined);
  expect(documented, `${method} ${path} answered ${response.status}, which is not documented`).toBeDefined();
  const schema = documented!.content?.['application/json']?.schema;
  if (schema === undefined) return;
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
  const validate = ajv.compile(rewritten);
  expect(validate(response.body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe('the document', () => {
  it('is a valid OpenAPI 3.1 document, and only for admins', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect((await app.anonymousAdmin.get('/openapi.json')).status).toBe(401);
    expect((await app.public.get('/openapi.json')).status).toBe(404);
  });

  it('describes every route the router has, on the listeners that serve it, and nothing else', () => {
    const builder = app.running.app.get(OpenApiDocumentBuilder);
    const routes = builder.routes().map((route) => operationKey(route.method, route.path));
    expect(routes.length).toBeGreaterThan(90);
    expect(routes.filter((key) => OPERATIONS[key] === undefined)).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((key) => !routes.includes(key))).toEqual([]);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => method !== 'servers')
        .map((method) => operationKey(method, path)),
    );
    expect(documented.sort()).toEqual([...routes].sort());
    // Every Nest controller route is in the router's catalog, so none escapes the description.
    for (const route of app.running.app.get(RouteAuditService).routes()) {
      expect(routes).toContain(operationKey(route.method, route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')));
    }
    expect(document.paths['/clients']!['servers']).toEqual([expect.objectContaining({ description: 'admin listener' })]);
    expect(document.paths['/health/ready']!['servers']).toHaveLength(2);
  });

  it('gives each route the error shape of the family that owns it', () => {
    const errorRef = (path: string, method: string): unknown =>
      (document.paths[path]![method]!.responses['default']!.content!['application/json']!.schema as { $ref: string }).$ref;
    expect(errorRef('/clients', 'get')).toBe('#/components/schemas/genericError');
    expect(errorRef('/identities', 'get')).toBe('#/components/schemas/jsonError');
    expect(errorRef('/relation-tuples', 'get')).toBe('#/components/schemas/standardError');
  });

  it('takes request bodies from the DTOs', () => {
    const body = (
      document.paths['/clients']!['post'] as unknown as { requestBody: { content: Record<string, { schema: { $ref: string } }> } }
    ).requestBody;
    const name = body.content['application/json']!.schema.$ref.split('/').pop()!;
    expect(document.components.schemas[name]).toMatchObject({ properties: expect.objectContaining({ redirect_uris: expect.anything() }) });
  });
});

describe('real answers fit the document', () => {
  it('clients, keys, tokens and introspection', async () => {
    const created = await app.admin.post<{ client_id: string; client_secret: string }>('/clients', {
      json: { client_name: 'doc', grant_types: ['client_credentials'], scope: 'read', token_endpoint_auth_method: 'client_secret_post' },
    });
    expectDocumented('POST', '/clients', created);
    const id = created.body.client_id;
    expectDocumented('GET', '/clients', await app.admin.get('/clients'));
    expectDocumented('GET', `/clients/${id}`, await app.admin.get(`/clients/${id}`));
    expectDocumented('GET', '/clients/missing', await app.admin.get('/clients/missing'));
    expectDocumented('POST', '/clients', await app.admin.post('/clients', { json: { redirect_uris: ['not a url'] } }));

    expectDocumented('POST', '/keys/doc', await app.admin.post('/keys/doc', { json: { alg: 'ES256' } }));
    expectDocumented('GET', '/keys/doc', await app.admin.get('/keys/doc'));
    expectDocumented('GET', '/.well-known/jwks.json', await app.public.get('/.well-known/jwks.json'));
    expectDocumented('GET', '/.well-known/openid-configuration', await app.public.get('/.well-known/openid-configuration'));

    const token = await app.public.post<{ access_token: string }>('/oauth2/token', {
      form: { grant_type: 'client_credentials', scope: 'read', client_id: id, client_secret: created.body.client_secret },
    });
    expectDocumented('POST', '/oauth2/token', token);
    expectDocumented('POST', '/oauth2/token', await app.public.post('/oauth2/token', { form: { grant_type: 'password' } }));
    expectDocumented(
      'POST',
      '/oauth2/introspect',
      await app.admin.post('/oauth2/introspect', { form: { token: token.body.access_token } }),
    );
    expectDocumented('GET', '/userinfo', await app.public.get('/userinfo'));
  });

  it('identities, self-service and sessions', async () => {
    await createPasswordIdentity(app, 'doc@example.com');
    const list = await app.admin.get<{ id: string }[]>('/identities');
    expectDocumented('GET', '/identities', list);
    expectDocumented(
      'GET',
      `/identities/${list.body[0]!.id}`,
      await app.admin.get(`/identities/${list.body[0]!.id}?include_credential=password`),
    );
    expectDocumented('POST', '/identities', await app.admin.post('/identities', { json: { traits: { email: 'not an address' } } }));
    expectDocumented('GET', '/self-service/login/api', await app.public.get('/self-service/login/api'));
    expectDocumented('GET', '/self-service/registration/api', await app.public.get('/self-service/registration/api'));
    const login = await apiLogin(app, 'doc@example.com', GOOD_PASSWORD);
    expectDocumented('POST', '/self-service/login', login);
    expectDocumented(
      'GET',
      '/sessions/whoami',
      await app.public.get('/sessions/whoami', { headers: { 'x-session-token': login.body.session_token } }),
    );
    expectDocumented('GET', '/sessions/whoami', await app.public.get('/sessions/whoami'));
    expectDocumented('GET', '/schemas/default', await app.public.get('/schemas/default'));
    expectDocumented('POST', '/recovery/link', await app.admin.post('/recovery/link', { json: { identity_id: list.body[0]!.id } }));
  });

  it('relation tuples and policies', async () => {
    const tuple = { namespace: 'files', object: 'doc', relation: 'viewer', subject: 'alice' };
    expectDocumented('PUT', '/relation-tuples', await app.admin.put('/relation-tuples', { json: tuple }));
    expectDocumented('GET', '/relation-tuples', await app.admin.get('/relation-tuples?namespace=files'));
    expectDocumented('POST', '/check', await app.admin.post('/check', { json: tuple }));
    expectDocumented('GET', '/expand', await app.admin.get('/expand?namespace=files&object=doc&relation=viewer'));
    expectDocumented('GET', '/relation-tuples', await app.admin.get('/relation-tuples'));
    const policy = { id: 'p', subjects: ['alice'], resources: ['doc'], actions: ['read'], effect: 'allow' };
    expectDocumented(
      'PUT',
      '/engines/acp/service/exact/policies',
      await app.admin.put('/engines/acp/service/exact/policies', { json: policy }),
    );
    expectDocumented('GET', '/engines/acp/service/exact/policies', await app.admin.get('/engines/acp/service/exact/policies'));
    expectDocumented(
      'POST',
      '/engines/acp/service/exact/allowed',
      await app.admin.post('/engines/acp/service/exact/allowed', { json: { subject: 'alice', resource: 'doc', action: 'read' } }),
    );
    // Plain routes with access `admin` need the admin credential, like the admin controllers.
    for (const [method, path] of [
      ['GET', '/check'],
      ['POST', '/relation-tuples/check'],
      ['POST', '/engines/acp/service/exact/allowed'],
    ] as const) {
      expect((operationOf(method, path) as { security?: unknown }).security, `${method} ${path}`).toEqual([{ adminToken: [] }]);
    }
    const role = { id: 'r', members: ['alice'] };
    expectDocumented('PUT', '/engines/acp/service/exact/roles', await app.admin.put('/engines/acp/service/exact/roles', { json: role }));
  });

  it('health and version', async () => {
    expectDocumented('GET', '/health/ready', await app.public.get('/health/ready'));
    expectDocumented('GET', '/health/alive', await app.public.get('/health/alive'));
    expectDocumented('GET', '/version', await app.admin.get('/version'));
  });
});
