import type { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/**
 * The request hooks Nest's Fastify adapter adds in its constructor, in its order, each named by what
 * its body reads. All but one only act once the application turns the matching feature on; this
 * service turns none of them on (it answers CORS, security headers, versions and shutdown itself or
 * not at all), so on every request they are a call each that does nothing, and Fastify runs its
 * hook runner for them: some 8,000 instructions per request counted, a tenth of the cheapest route.
 * The routable-target hook does act (a target such as `*users`, which the router would serve as
 * `/users`, gets the not-found handler), and is kept.
 */
const ADAPTER_HOOKS = {
  onRequest: [
    { marker: 'onRequestHook', feature: 'setOnRequestHook' },
    { marker: 'return503OnClosing', feature: 'return503OnClosing' },
    { marker: 'corsHook', feature: 'enableCors' },
    { marker: 'securityHook', feature: 'registerSecurityHook' },
    { marker: 'isRoutableRequestTarget', feature: undefined },
    { marker: 'versionExtractorErrors', feature: 'applyVersionFilter' },
  ],
  onResponse: [{ marker: 'onResponseHook', feature: 'setOnResponseHook' }],
} as const;

/** The adapter methods that would turn a removed hook's feature on, refused once it is removed. */
const LOCKED_METHODS = ['setOnRequestHook', 'setOnResponseHook', 'enableCors', 'registerSecurityHook', 'applyVersionFilter'] as const;

/** The hook lists of a Fastify instance that this module edits (and its specs read). */
export type HookArrays = Record<keyof typeof ADAPTER_HOOKS, ((...args: never[]) => unknown)[]>;

/**
 * Removes the adapter's idle hooks from a Fastify instance that has no others yet (call it right
 * after constructing the adapter, before any route or plugin exists: Fastify copies the hooks into
 * each route and plugin scope as it is added). The methods that would make a removed hook act then throw, so turning such
 * a feature on later fails at boot instead of doing nothing; so does `return503OnClosing`.
 *
 * Returns why nothing was removed when the hooks are not exactly the ones described above (another
 * adapter version): they are then all left in place, which is only slower.
 */
export async function removeIdleAdapterHooks(adapter: FastifyAdapter): Promise<string | undefined> {
  const fastify = adapter.getInstance<FastifyInstance>();
  // Fastify adds a request hook once the plugins queued before it are loaded: loads the adapter's.
  await fastify.after();
  const hooks = hookArraysOf(fastify);
  if (hooks === undefined) return "Fastify's hook lists were not found";
  for (const name of ['onRequest', 'onResponse'] as const) {
    const present = hooks[name];
    const expected = ADAPTER_HOOKS[name];
    if (present.length !== expected.length || expected.some((hook, i) => !String(present[i]).includes(hook.marker))) {
      return `the adapter's ${name} hooks are not the ones expected`;
    }
  }
  const adapterMethods = adapter as unknown as Record<string, unknown>;
  if (LOCKED_METHODS.some((method) => typeof adapterMethods[method] !== 'function')) return 'the adapter lacks a method expected';

  const kept = hooks.onRequest.filter((_hook, i) => ADAPTER_HOOKS.onRequest[i].feature === undefined);
  hooks.onRequest.splice(0, hooks.onRequest.length, ...kept);
  hooks.onResponse.length = 0;
  for (const method of LOCKED_METHODS) {
    Object.defineProperty(adapter, method, {
      value: () => {
        throw new Error(`${method}: the adapter's request hook for it was removed at start (adapter-hooks.ts)`);
      },
    });
  }
  const initHttpServer = adapter.initHttpServer.bind(adapter);
  Object.defineProperty(adapter, 'initHttpServer', {
    value: (options: { return503OnClosing?: boolean } = {}) => {
      if (options.return503OnClosing === true) {
        throw new Error("return503OnClosing: the adapter's request hook for it was removed at start (adapter-hooks.ts)");
      }
      initHttpServer(options as never);
    },
  });
  return undefined;
}

/** Fastify keeps an instance's hooks under a symbol of its own, not exported. */
export function hookArraysOf(fastify: FastifyInstance): HookArrays | undefined {
  const key = Object.getOwnPropertySymbols(fastify).find((symbol) => symbol.description === 'fastify.hooks');
  const hooks = key === undefined ? undefined : (fastify as unknown as Record<symbol, Partial<HookArrays> | undefined>)[key];
  if (!Array.isArray(hooks?.onRequest) || !Array.isArray(hooks.onResponse)) return undefined;
  return hooks as HookArrays;
}
