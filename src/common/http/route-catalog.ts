import { Injectable } from '@nestjs/common';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Listener } from './listener.js';
import { PLAIN_ROUTE_ACCESS, type PlainRouteAccess } from './plain-route.js';

/** One route as Fastify registered it: the source of truth for what the service answers. */
export interface CatalogRoute {
  readonly method: string;
  /** Fastify's path syntax (`/clients/:id`). */
  readonly url: string;
  readonly listeners: readonly Listener[];
  /** Set for the routes registered by `registerPlainRoute`; Nest controllers carry auth markers instead. */
  readonly access: PlainRouteAccess | undefined;
}

/**
 * Every route of every listener, recorded as Fastify registers it (Nest controllers and plain
 * routes alike), so the API description is generated from what really answers rather than from a
 * list kept by hand. Attached before the application initialises, when no route exists yet.
 */
@Injectable()
export class RouteCatalog {
  private readonly recorded: CatalogRoute[] = [];

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const listeners = routeListeners(route);
      if (listeners === undefined) return;
      const access = (route.config as Record<string, PlainRouteAccess | undefined> | undefined)?.[PLAIN_ROUTE_ACCESS];
      for (const method of [route.method].flat()) {
        this.recorded.push({ method: method.toUpperCase(), url: route.url, listeners, access });
      }
    });
  }

  /** The routes, without the HEAD twins Fastify adds for each GET. */
  routes(): readonly CatalogRoute[] {
    const gets = new Set(this.recorded.filter((route) => route.method === 'GET').map((route) => route.url));
    return this.recorded.filter((route) => route.method !== 'HEAD' || !gets.has(route.url));
  }
}

/** The listeners a route answers on, from its `listener` constraint; undefined when it has none. */
export function routeListeners(route: RouteOptions): Listener[] | undefined {
  const listener = (route.constraints as { listener?: unknown } | undefined)?.listener;
  return typeof listener === 'string' ? (listener.split('|') as Listener[]) : undefined;
}
