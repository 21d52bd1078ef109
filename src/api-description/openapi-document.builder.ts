import { Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { RouteAuditService, type AuditedRoute } from '../common/auth/route-audit.service.js';
import { ErrorFamily, familyOf } from '../common/errors/error-family.js';
import type { Listener } from '../common/http/listener.js';
import type { PlainRouteAccess } from '../common/http/plain-route.js';
import type { HttpConfig, UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ERROR_SCHEMAS, errorSchemaName } from './error-schemas.js';
import { OPERATIONS, operationKey, type OperationDescription } from './operations.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';
import { RouteCatalog } from '../common/http/route-catalog.js';

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

/** A route of the description: one method and path, on every listener that serves it. */
export interface DescribedRoute {
  readonly method: string;
  /** OpenAPI path syntax (`/clients/{id}`). */
  readonly path: string;
  readonly listeners: readonly Listener[];
  /** A plain route's access (the catalog's); Nest routes carry an auth marker instead. */
  readonly access: PlainRouteAccess | undefined;
}

const SCHEMA_PREFIX = '#/components/schemas/';

/**
 * Builds the OpenAPI 3.1 document from what the code knows: the routes Fastify registered (every
 * listener, Nest controllers and plain routes alike), each Nest route's auth marker and the
 * class-validator DTOs of its body and query, the error shape of the family that owns each path,
 * and, for what the code cannot say (summaries, success statuses, response shapes), the entries in
 * operations.ts. Built once, on first request.
 */
@Injectable()
export class OpenApiDocumentBuilder {
  private document: Schema | undefined;

  constructor(
    private readonly catalog: RouteCatalog,
    private readonly audit: RouteAuditService,
    @InjectConfig('version') private readonly serviceVersion: string,
    @InjectConfig('http') private readonly http: HttpConfig,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  /** The routes to describe: the catalog's, method and path merged across listeners. */
  routes(): DescribedRoute[] {
    const merged = new Map<string, { method: string; path: string; listeners: Set<Listener>; access: PlainRouteAccess | undefined }>();
    for (const route of this.catalog.routes()) {
      const path = openApiPath(route.url);
      const key = operationKey(route.method, path);
      const entry = merged.get(key) ?? { method: route.method, path, listeners: new Set<Listener>(), access: route.access };
      for (const listener of route.listeners) entry.listeners.add(listener);
      merged.set(key, entry);
    }
    return [...merged.values()].map((entry) => ({
      method: entry.method,
      path: entry.path,
      listeners: [...entry.listeners].sort(),
      access: entry.access,
    }));
  }

  build(): Schema {
    this.document ??= this.generate();
    return this.document;
  }

  private generate(): Schema {
    // class-transformer's metadata names the element class of nested arrays (`@Type(() => X)`).
    const dtoSchemas = validationMetadatasToSchemas({
      refPointerPrefix: SCHEMA_PREFIX,
      classTransformerMetadataStorage: defaultMetadataStorage,
    }) as Record<string, Schema>;
    const audited = new Map(this.audit.routes().map((route) => [operationKey(route.method, openApiPath(route.path)), route]));
    const paths: Record<string, Record<string, unknown>> = {};
    for (const route of this.routes().sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
      const key = operationKey(route.method, route.path);
      // A route without an entry is still described (from what the code knows), never left out; the
      // test that walks the router fails on it so that entries are added with the route.
      const description = OPERATIONS[key] ?? undescribed(route);
      const item = (paths[route.path] ??= {
        servers: route.listeners.map((listener) => ({ url: this.serverUrl(listener), description: `${listener} listener` })),
      });
      item[route.method.toLowerCase()] = this.operation(route, description, audited.get(key), dtoSchemas);
    }
    return {
      openapi: '3.1.0',
      info: {
        title: 'Latchkey',
        version: this.serviceVersion,
        description:
          'OAuth 2.0 / OpenID Connect provider, identities and self-service flows, relation tuples and access-control policies. ' +
          'Each path lists the listeners (servers) that answer it; admin routes need an admin token or an access token granted the admin scope.',
      },
      servers: (['public', 'admin'] as const).map((listener) => ({ url: this.serverUrl(listener), description: `${listener} listener` })),
      paths,
      components: {
        schemas: { ...dtoSchemas, ...RESPONSE_SCHEMAS, ...ERROR_SCHEMAS },
        securitySchemes: {
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'An admin token (ADMIN_TOKENS) or an access token granted the admin scope.',
          },
          bearerToken: { type: 'http', scheme: 'bearer', description: 'An OAuth 2.0 access token issued by this service.' },
          clientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic: the client id and secret, form-encoded.' },
          clientPost: {
            type: 'apiKey',
            in: 'query',
            name: 'client_secret',
            description: 'client_secret_post (in the form body), or a private_key_jwt client_assertion.',
          },
          sessionToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Session-Token',
            description: 'A self-service session token (API clients).',
          },
          serviceSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'Service-Signature',
            description: 't=<ms timestamp>,s=<hex HMAC-SHA256 of "t.body" with the connection secret>',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'service_session',
            description: 'The self-service session cookie (browsers).',
          },
        },
      },
    };
  }

  private operation(
    route: DescribedRoute,
    description: OperationDescription,
    audited: AuditedRoute | undefined,
    dtoSchemas: Record<string, Schema>,
  ): Operation {
    const family = familyOf(route.listeners[0], route.path.replace(/\{[^}]+\}/g, 'x'));
    const operation: Operation = {
      operationId: operationId(route),
      summary: description.summary,
      tags: [description.tag],
      parameters: [...pathParameters(route.path), ...this.queryParameters(audited, dtoSchemas), ...(description.query ?? [])],
      responses: {
        [String(description.status)]: response(description),
        default: {
          description: 'An error, in the shape of the family that owns the path',
          content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}${errorSchemaName(family)}` } } },
        },
      },
    };
    const body = description.body ?? bodySchemaOf(audited, dtoSchemas);
    if (body !== undefined) operation['requestBody'] = { required: true, content: body };
    // A plain route with access `admin` takes the same credential as an `admin` controller.
    const auth = audited?.auth ?? (route.access === 'admin' ? 'admin' : undefined);
    if (auth === 'admin') operation['security'] = [{ adminToken: [] }];
    else if (auth === 'bearer') operation['security'] = [{ bearerToken: [] }];
    else if (auth === 'admin_or_client') operation['security'] = [{ adminToken: [] }, { clientBasic: [] }, { clientPost: [] }];
    else operation['security'] = description.security ?? [];
    if (family !== ErrorFamily.OAuth) operation['x-error-family'] = family;
    return operation;
  }

  private queryParameters(audited: AuditedRoute | undefined, dtoSchemas: Record<string, Schema>): Schema[] {
    const type = argumentType(audited, RouteParamtypes.QUERY);
    const schema = type === undefined ? undefined : dtoSchemas[type.name];
    const properties = (schema?.['properties'] ?? {}) as Record<string, Schema>;
    const required = new Set((schema?.['required'] ?? []) as string[]);
    return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
  }

  private serverUrl(listener: Listener): string {
    const { http, urls } = this;
    const port = listener === 'public' ? http.publicPort : listener === 'admin' ? http.adminPort : (http.proxyPort ?? 4455);
    return listener === 'public' ? urls.issuer : `http://${http.host === '0.0.0.0' ? 'localhost' : http.host}:${port}`;
  }
}

/** `/clients/:id` → `/clients/{id}`; a trailing wildcard (`/decisions/*`) is the parameter `{path}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, '/{path}');
}

/** What a route without an entry in operations.ts is described as. */
export const UNDESCRIBED_SUMMARY = '(no description yet)';

function undescribed(route: DescribedRoute): OperationDescription {
  return { summary: UNDESCRIBED_SUMMARY, tag: route.path.split('/')[1] ?? 'other', status: 200, response: { type: 'object' } };
}

function pathParameters(path: string): Schema[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
}

function operationId(route: DescribedRoute): string {
  const words = route.path
    .replace(/\{([^}]+)\}/g, 'by-$1')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return [route.method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

function response(description: OperationDescription): Schema {
  if (description.response === undefined) return { description: description.responseDescription ?? 'No content' };
  const contentType = description.contentType ?? 'application/json';
  const schema = typeof description.response === 'string' ? { $ref: `${SCHEMA_PREFIX}${description.response}` } : description.response;
  return { description: description.responseDescription ?? 'Success', content: { [contentType]: { schema } } };
}

/** The DTO class of a Nest handler's argument of one kind (`@Body()`, `@Query()`), if it has one. */
function argumentType(audited: AuditedRoute | undefined, kind: RouteParamtypes): (new () => unknown) | undefined {
  if (audited === undefined) return undefined;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, audited.target, audited.handler) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', audited.target.prototype as object, audited.handler) ?? []) as unknown[];
  for (const [key, argument] of Object.entries(args)) {
    if (key.split(':')[0] !== String(kind) || argument.data !== undefined) continue;
    const type = types[argument.index];
    if (typeof type === 'function' && type !== Object && type !== Array && type !== String) return type as new () => unknown;
  }
  return undefined;
}

function bodySchemaOf(audited: AuditedRoute | undefined, dtoSchemas: Record<string, Schema>): Schema | undefined {
  const type = argumentType(audited, RouteParamtypes.BODY);
  if (type === undefined || dtoSchemas[type.name] === undefined) return undefined;
  return { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}${type.name}` } } };
}
