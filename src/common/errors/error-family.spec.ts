import { describe, expect, it } from 'vitest';
import { ErrorFamily, familyOf } from './error-family.js';

describe('familyOf', () => {
  it.each([
    ['/clients', ErrorFamily.OAuth],
    ['/keys/openid.id-token', ErrorFamily.OAuth],
    ['/oauth2/token', ErrorFamily.OAuth],
    ['/unknown', ErrorFamily.OAuth],
    ['/identities', ErrorFamily.Identity],
    ['/identities/123', ErrorFamily.Identity],
    ['/self-service/login/browser', ErrorFamily.Identity],
    ['/identitiesx', ErrorFamily.OAuth],
    ['/relation-tuples', ErrorFamily.Access],
    ['/check', ErrorFamily.Access],
    ['/engines/acp/service/exact/policies', ErrorFamily.Access],
    ['/decisions/anything', ErrorFamily.Access],
  ])('%s belongs to the %s family', (path, family) => {
    expect(familyOf('admin', path)).toBe(family);
  });

  it('gives everything on the proxy listener the access shape', () => {
    expect(familyOf('proxy', '/clients')).toBe(ErrorFamily.Access);
  });
});
