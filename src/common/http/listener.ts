import { IncomingMessage } from 'node:http';
import { SetMetadata } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { RouteConstraints } from '@nestjs/platform-fastify';

export type Listener = 'public' | 'admin' | 'proxy';
export const LISTENERS: readonly Listener[] = ['public', 'admin', 'proxy'];

export const LISTENERS_METADATA = 'latchkey:listeners';
const LISTENER_OF_REQUEST = Symbol('latchkey.listener');

/**
 * Each listener's request class: the listener's name sits on the class's prototype, so telling a
 * request's listener costs no write per request (a property added to every request after Node built
 * it would also change its shape). The listeners hand these classes to Node (HttpListeners).
 */
const REQUEST_CLASSES = new Map(
  LISTENERS.map((listener) => {
    const RequestOnListener = class extends IncomingMessage {};
    Object.defineProperty(RequestOnListener.prototype, LISTENER_OF_REQUEST, { value: listener });
    return [listener, RequestOnListener] as const;
  }),
);

export function requestClassFor(listener: Listener): typeof IncomingMessage {
  return REQUEST_CLASSES.get(listener)!;
}

export function listenerOf(req: IncomingMessage): Listener | undefined {
  return (req as unknown as Record<symbol, Listener | undefined>)[LISTENER_OF_REQUEST];
}

/**
 * A find-my-way constraint strategy: a route answers only on the listeners it declares, and because
 * `mustMatchWhenDerived` is set, a route that declares none answers nowhere. A route may name several
 * listeners as `public|admin`.
 */
export const listenerConstraint = {
  name: 'listener',
  mustMatchWhenDerived: true,
  storage() {
    const handlers = new Map<string, number>();
    return {
      get: (value: string): number | null => (value.includes('|') ? null : (handlers.get(value) ?? null)),
      set: (value: string, indexes: number): void => {
        for (const listener of value.split('|')) handlers.set(listener, (handlers.get(listener) ?? 0) | indexes);
      },
    };
  },
  deriveConstraint(req: IncomingMessage): string | undefined {
    return listenerOf(req);
  },
  validate(value: unknown): void {
    if (typeof value !== 'string' || !value.split('|').every((item) => (LISTENERS as string[]).includes(item))) {
      throw new Error(`listener constraint must name listeners from ${LISTENERS.join(', ')}, got ${String(value)}`);
    }
  },
};

/**
 * Class decorator: every route of the controller answers only on these listeners (404 elsewhere).
 * Fastify reads route constraints per handler, so the constraint is put on each route method.
 */
export function OnListener(...listeners: Listener[]): ClassDecorator {
  const constraint = RouteConstraints({ listener: listeners.join('|') });
  return (target) => {
    SetMetadata(LISTENERS_METADATA, listeners)(target);
    const prototype = (target as unknown as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      if (name === 'constructor' || typeof method !== 'function') continue;
      if (Reflect.getMetadata(PATH_METADATA, method) === undefined) continue;
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
      constraint(prototype, name, descriptor);
    }
  };
}
