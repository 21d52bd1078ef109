import type { FastifyRequest } from 'fastify';

type Cookies = FastifyRequest['cookies'];

/**
 * The request's cookies, parsed on first use and kept on the request. `@fastify/cookie` is registered
 * with `hook: false` (bootstrap.ts): its default onRequest hook parsed the Cookie header of every
 * request, and a route with any onRequest hook pays Fastify's hook runner too, while only the browser
 * routes (authorize, logout, self-service flows, the session token) read cookies. Setting a cookie on
 * the reply still works as before; the plugin re-reads the header then, into a fresh object, so call
 * this again after a `setCookie` rather than keep the object from before it (CsrfProtection.issue).
 */
export function requestCookies(request: FastifyRequest): Cookies {
  // The one place that touches the property (eslint.config.js): null until parsed, whatever its type says.
  const holder = request as { cookies: Cookies | null };
  if (holder.cookies !== null) return holder.cookies;
  const header = request.headers.cookie;
  holder.cookies = header === undefined || header === '' ? {} : request.server.parseCookie(header);
  return holder.cookies;
}
