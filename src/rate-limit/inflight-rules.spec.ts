import { describe, expect, it } from 'vitest';
import { inflightMayApply } from './inflight-rules.js';

describe('inflightMayApply', () => {
  it('holds for the routes the rules name, on the admin listener, under their router paths', () => {
    expect(inflightMayApply(['POST'], '/identities', ['admin'])).toBe(true);
    expect(inflightMayApply(['PATCH'], '/identities/:id', ['admin'])).toBe(true);
    expect(inflightMayApply(['DELETE'], '/identities/:id/credentials/:type', ['admin'])).toBe(true);
    expect(inflightMayApply(['DELETE'], '/identities/:id/sessions', ['admin'])).toBe(true);
    expect(inflightMayApply(['PATCH'], '/sessions/:id/extend', ['admin'])).toBe(true);
    expect(inflightMayApply(['POST'], '/self-service/recovery', ['public'])).toBe(true);
  });

  it('does not hold for methods every rule exempts, nor for methods the matching rule does not name', () => {
    expect(inflightMayApply(['GET', 'HEAD'], '/identities/:id', ['admin'])).toBe(false);
    expect(inflightMayApply(['OPTIONS'], '/identities', ['admin'])).toBe(false);
    expect(inflightMayApply(['GET'], '/sessions/whoami', ['public'])).toBe(false);
    expect(inflightMayApply(['DELETE'], '/identities', ['admin'])).toBe(false);
    expect(inflightMayApply(['GET', 'POST'], '/identities', ['admin'])).toBe(true);
  });

  it('does not hold where no rule can match: other paths, admin paths on the public listener, the proxy listener', () => {
    expect(inflightMayApply(['POST'], '/check', ['admin'])).toBe(false);
    expect(inflightMayApply(['POST'], '/engines/acp/service/:flavor/allowed', ['admin'])).toBe(false);
    expect(inflightMayApply(['POST'], '/oauth2/token', ['public'])).toBe(false);
    expect(inflightMayApply(['POST'], '/decisions/*', ['admin'])).toBe(false);
    expect(inflightMayApply(['POST'], '/identities', ['public'])).toBe(false);
    expect(inflightMayApply(['POST'], '/self-service/recovery', ['admin'])).toBe(false);
    expect(inflightMayApply(['POST'], '*', ['proxy'])).toBe(false);
  });

  it('errs on the side of holding: a wildcard or a parameter that may reach a rule, or no listener known', () => {
    expect(inflightMayApply(['POST'], '*', ['admin'])).toBe(true);
    expect(inflightMayApply(['DELETE'], '/:anything', ['admin'])).toBe(true);
    expect(inflightMayApply(['PUT'], '/identities/*', ['admin'])).toBe(true);
    expect(inflightMayApply(['POST'], '/identities', undefined)).toBe(true);
    expect(inflightMayApply(['post'], '/identities', ['admin'])).toBe(true);
  });
});
