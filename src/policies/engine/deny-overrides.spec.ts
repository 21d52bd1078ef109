import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, anIndex } from '../../../test/support/acp-builders.js';
import type { Flavor } from './policy-definition.js';

const patterns: Record<Flavor, { subject: string; resource: string }> = {
  regex: { subject: 'users:<.*>', resource: 'articles:<[0-9]+>' },
  glob: { subject: 'users:*', resource: 'articles:*' },
  exact: { subject: 'users:alice', resource: 'articles:1' },
};

describe.each(['regex', 'glob', 'exact'] as const)('deny overrides (%s)', (flavor) => {
  const { subject, resource } = patterns[flavor];
  const request = aRequest('users:alice', 'articles:1', 'read');

  it('no matching policy denies', () => {
    expect(anIndex(flavor, [aPolicy({ subjects: ['users:bob'], resources: [resource], actions: ['read'] })]).isAllowed(request)).toBe(
      false,
    );
  });

  it('one matching allow allows', () => {
    expect(anIndex(flavor, [aPolicy({ subjects: [subject], resources: [resource], actions: ['read'] })]).isAllowed(request)).toBe(true);
  });

  it('a matching deny wins over any number of matching allows, whatever the order', () => {
    const allows = [1, 2, 3].map(() => aPolicy({ subjects: [subject], resources: [resource], actions: ['read'] }));
    const deny = aPolicy({ subjects: ['users:alice'], resources: ['articles:1'], actions: ['read'], effect: 'deny' });
    expect(anIndex(flavor, [...allows, deny]).isAllowed(request)).toBe(false);
    expect(anIndex(flavor, [deny, ...allows]).isAllowed(request)).toBe(false);
  });

  it('a deny alone denies', () => {
    expect(
      anIndex(flavor, [aPolicy({ subjects: [subject], resources: [resource], actions: ['read'], effect: 'deny' })]).isAllowed(request),
    ).toBe(false);
  });

  it('a deny that does not match (other action) does not override', () => {
    const index = anIndex(flavor, [
      aPolicy({ subjects: [subject], resources: [resource], actions: ['read'] }),
      aPolicy({ subjects: [subject], resources: [resource], actions: ['delete'], effect: 'deny' }),
    ]);
    expect(index.isAllowed(request)).toBe(true);
    expect(index.isAllowed(aRequest('users:alice', 'articles:1', 'delete'))).toBe(false);
  });

  it('a policy with an empty subjects, resources or actions list never applies', () => {
    const index = anIndex(flavor, [
      aPolicy({ subjects: [subject], resources: [resource], actions: ['read'] }),
      aPolicy({ subjects: [], resources: [resource], actions: ['read'], effect: 'deny' }),
      aPolicy({ subjects: [subject], resources: [], actions: ['read'], effect: 'deny' }),
    ]);
    expect(index.isAllowed(request)).toBe(true);
  });

  it('removing the deny restores the allow; replacing a policy replaces its effect', () => {
    const deny = aPolicy({ subjects: [subject], resources: [resource], actions: ['read'], effect: 'deny' });
    const index = anIndex(flavor, [aPolicy({ subjects: [subject], resources: [resource], actions: ['read'] }), deny]);
    expect(index.isAllowed(request)).toBe(false);
    index.removePolicy(deny.id);
    expect(index.isAllowed(request)).toBe(true);
    index.putPolicy({ ...deny, effect: 'deny' });
    expect(index.isAllowed(request)).toBe(false);
    index.putPolicy({ ...deny, effect: 'allow' });
    expect(index.isAllowed(request)).toBe(true);
  });
});
