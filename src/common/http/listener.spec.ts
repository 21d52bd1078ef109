import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LISTENERS, listenerConstraint, listenerOf, requestClassFor } from './listener.js';

describe('listener route constraint', () => {
  it('derives the listener a request arrived on from its class', () => {
    expect(listenerConstraint.deriveConstraint(new IncomingMessage(new Socket()))).toBeUndefined();
    for (const listener of LISTENERS) {
      const req = new (requestClassFor(listener))(new Socket());
      expect(req).toBeInstanceOf(IncomingMessage);
      expect(listenerOf(req)).toBe(listener);
      expect(listenerConstraint.deriveConstraint(req)).toBe(listener);
    }
  });

  it('stores a route declared for several listeners under each of them', () => {
    const store = listenerConstraint.storage();
    // find-my-way reads the current mask for the declared value, ORs its handler bit in and stores it back.
    store.set('public|admin', (store.get('public|admin') ?? 0) | 0b01);
    store.set('admin', (store.get('admin') ?? 0) | 0b10);
    expect(store.get('public')).toBe(0b01);
    expect(store.get('admin')).toBe(0b11);
    expect(store.get('proxy')).toBeNull();
  });

  it('rejects unknown listener names at route registration', () => {
    expect(() => listenerConstraint.validate('admin|public')).not.toThrow();
    expect(() => listenerConstraint.validate('internal')).toThrow();
    expect(() => listenerConstraint.validate(3)).toThrow();
  });
});
