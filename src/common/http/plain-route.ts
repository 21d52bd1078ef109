import type {
  DoneFuncWithErrOrRes,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { AdminCredentials } from '../auth/admin-credentials.js';
import { logServerError, sendError } from '../errors/error-response.js';
import type { Listener } from './listener.js';

/**
 * How a plain route lets its caller in, the plain routes' counterpart of a controller's auth marker
 * (checked at boot by RouteAuditService). `public`: open to anyone; the handler checks whatever
 * credential it takes itself (a client's authentication, a session token, a webhook signature).
 * `allowed_peers`: no admin token, only the peers its handler admits (the decision API). `admin`: an
 * admin credential, checked by AdminCredentials exactly as AuthGuard checks it for `admin` controllers.
 */
export type PlainRouteAccess = 'public' | 'allowed_peers' | 'admin';

/** The route config key under which a plain route carries its access, read back by the route catalog. */
export const PLAIN_ROUTE_ACCESS = 'plainRouteAccess';

/** An `admin` route names the AdminCredentials that check its caller (the route's own injection). */
export type PlainRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface> = PlainRouteOptions<RouteGeneric> &
  ({ readonly access: Exclude<PlainRouteAccess, 'admin'> } | { readonly access: 'admin'; readonly admin: AdminCredentials });

interface PlainRouteOptions<RouteGeneric extends RouteGenericInterface> {
  readonly method: HTTPMethods | readonly HTTPMethods[];
  readonly url: string;
  readonly listeners: readonly Listener[];
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
 * checks. For access `admin`, a `preHandler` route hook asks AdminCredentials, where AuthGuard runs
 * for a controller: after the body is parsed and the global hooks ran, so a refusal is the same 401,
 * rendered the same way; it answers at once for a static token, with no promise. Nothing else is
 * added per request: the handler runs as given. A handler that already has its answer (a cache hit)
 * sends it and returns undefined, and returns a promise only when it must wait: an async handler makes
 * its promise on every request, and Fastify, given back the reply (a thenable), two more jobs.
 * `fastify` may be a scope of its own (own body parsers).
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
  if (route.access === 'admin') options.preHandler = adminCheck(route.admin);
  if (route.bodyLimit !== undefined) options.bodyLimit = route.bodyLimit;
  if (route.exposeHeadRoute !== undefined) options.exposeHeadRoute = route.exposeHeadRoute;
  fastify.route(options);
}

/** Callback style, so the common case (a static token, or ADMIN_AUTH=off) makes no promise. */
function adminCheck(credentials: AdminCredentials) {
  return (request: FastifyRequest, _reply: FastifyReply, done: DoneFuncWithErrOrRes): void => {
    let pending: Promise<void> | undefined;
    try {
      pending = credentials.authorize(request.headers.authorization);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending === undefined) done();
    else pending.then(() => done(), done);
  };
}
