import type {
  FastifyInstance,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import { logServerError, sendError } from '../errors/error-response.js';
import type { Listener } from './listener.js';

/**
 * How a plain route lets its caller in, the plain routes' counterpart of a controller's auth marker
 * (checked at boot by RouteAuditService). `public`: open to anyone; the handler checks whatever
 * credential it takes itself (a client's authentication, a session token, a webhook signature).
 * `allowed_peers`: no admin token, only the peers its handler admits (the decision API).
 */
export type PlainRouteAccess = 'public' | 'allowed_peers';

/** The route config key under which a plain route carries its access, read back by the route catalog. */
export const PLAIN_ROUTE_ACCESS = 'plainRouteAccess';

export interface PlainRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface> {
  readonly method: HTTPMethods | readonly HTTPMethods[];
  readonly url: string;
  readonly listeners: readonly Listener[];
  readonly access: PlainRouteAccess;
  /** EXPOSE_INTERNAL_ERRORS: errors are rendered by `sendError`, in the family that owns the path. */
  readonly exposeInternal: boolean;
  readonly handler: RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGeneric>;
  readonly bodyLimit?: number;
  /** Fastify adds a HEAD twin to each GET unless told not to (routes that take HEAD themselves). */
  readonly exposeHeadRoute?: boolean;
}

/**
 * Registers a route on Fastify directly, outside Nest's router, guards and pipes (for the hot paths
 * where those would be most of the cost). Everything a controller gets from the framework is set up
 * here, once, at registration: the listener constraint, errors rendered by `sendError` in the path's
 * family and 5xx logged as the exception filter logs them, and the access marker the route audit
 * checks. The handler itself runs as given: nothing is added per request. `fastify` may be a scope
 * of its own (own body parsers).
 */
export function registerPlainRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface>(
  fastify: FastifyInstance,
  route: PlainRoute<RouteGeneric>,
): void {
  const exposeInternal = route.exposeInternal;
  const options: RouteOptions = {
    method: route.method as HTTPMethods | HTTPMethods[],
    url: route.url,
    constraints: { listener: route.listeners.join('|') },
    config: { [PLAIN_ROUTE_ACCESS]: route.access },
    errorHandler: (error, request, reply) => {
      const problem = sendError(request, reply, error, exposeInternal);
      if (problem.status >= 500) logServerError(request, problem);
    },
    handler: route.handler as RouteHandlerMethod,
  };
  if (route.bodyLimit !== undefined) options.bodyLimit = route.bodyLimit;
  if (route.exposeHeadRoute !== undefined) options.exposeHeadRoute = route.exposeHeadRoute;
  fastify.route(options);
}
