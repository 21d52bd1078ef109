import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { LISTENERS_METADATA, type Listener } from '../http/listener.js';
import { RouteCatalog, type CatalogRoute } from '../http/route-catalog.js';
import { AUTH_MARKER_METADATA, type AuthMarker } from './auth-marker.js';

export interface AuditedRoute {
  /** The controller class, whose metadata says more (arguments, DTOs) to whoever needs it. */
  readonly target: new (...args: never[]) => unknown;
  readonly controller: string;
  readonly handler: string;
  readonly method: string;
  readonly path: string;
  readonly listeners: readonly Listener[] | undefined;
  readonly auth: AuthMarker | undefined;
}

/**
 * Refuses to boot when a route has no auth marker or no listener: nothing is open by omission. Nest
 * controllers carry their marker as metadata; plain Fastify routes carry theirs from
 * `registerPlainRoute`, and any other route Fastify answers (one registered around that helper) is
 * refused too.
 */
@Injectable()
export class RouteAuditService implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly catalog: RouteCatalog,
  ) {}

  /**
   * Starts recording the routes Fastify registers (before the application initialises) and checks
   * them once every plugin scope has registered its own, when Fastify becomes ready.
   */
  attach(fastify: FastifyInstance): void {
    this.catalog.attach(fastify);
    fastify.addHook('onReady', async () => this.checkPlainRoutes());
  }

  /** The routes registered by `registerPlainRoute`, with their access. */
  plainRoutes(): CatalogRoute[] {
    return this.catalog.routes().filter((route) => route.access !== undefined);
  }

  private checkPlainRoutes(): void {
    const controllers = new Set(this.routes().map((route) => `${route.method} ${route.path}`));
    const bypassing = this.catalog
      .routes()
      .filter((route) => route.access === undefined && !controllers.has(`${route.method} ${route.url}`));
    if (bypassing.length > 0) {
      const names = bypassing.map((route) => `${route.method} ${route.url}`);
      throw new Error(`Routes neither in a controller nor registered by registerPlainRoute: ${names.join(', ')}`);
    }
  }

  onApplicationBootstrap(): void {
    const unmarked = this.routes().filter((route) => route.auth === undefined || route.listeners === undefined);
    if (unmarked.length > 0) {
      const names = unmarked.map((route) => `${route.controller}.${route.handler} (${route.method} ${route.path})`);
      throw new Error(`Routes without an auth marker or a listener: ${names.join(', ')}`);
    }
  }

  routes(): AuditedRoute[] {
    const routes: AuditedRoute[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (controller === undefined || wrapper.instance === undefined) continue;
      const prototype = Object.getPrototypeOf(wrapper.instance) as object;
      const base = this.reflector.get<string | string[] | undefined>(PATH_METADATA, controller);
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const path = this.reflector.get<string | string[] | undefined>(PATH_METADATA, handler);
        if (path === undefined) continue;
        const method = RequestMethod[this.reflector.get<RequestMethod>(METHOD_METADATA, handler)] ?? 'GET';
        const listeners = this.reflector.get<Listener[] | undefined>(LISTENERS_METADATA, controller);
        const auth = this.reflector.getAllAndOverride<AuthMarker | undefined>(AUTH_MARKER_METADATA, [handler, controller]);
        // A controller or a handler may name several paths: Nest registers one route per pair.
        for (const prefix of [base ?? ''].flat()) {
          for (const suffix of [path].flat()) {
            routes.push({
              target: controller,
              controller: controller.name,
              handler: name,
              method,
              path: joinPath(prefix, suffix),
              listeners,
              auth,
            });
          }
        }
      }
    }
    return routes;
  }
}

function joinPath(prefix: string, suffix: string): string {
  return `/${[prefix, suffix].filter((part) => part !== '' && part !== '/').join('/')}`.replace(/\/+/g, '/');
}
