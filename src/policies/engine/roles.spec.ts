import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, aRole, anIndex } from '../../../test/support/acp-builders.js';

describe('roles', () => {
  it('a member is granted what a policy grants to the role id', () => {
    const index = anIndex(
      'exact',
      [aPolicy({ subjects: ['editors'], resources: ['articles:1'], actions: ['write'] })],
      [aRole('editors', ['users:alice'])],
    );
    expect(index.isAllowed(aRequest('users:alice', 'articles:1', 'write'))).toBe(true);
    expect(index.isAllowed(aRequest('users:bob', 'articles:1', 'write'))).toBe(false);
  });

  it('the role id is matched with the flavor’s patterns', () => {
    const regex = anIndex(
      'regex',
      [aPolicy({ subjects: ['roles:<editor|admin>'], resources: ['r'], actions: ['a'] })],
      [aRole('roles:admin', ['alice'])],
    );
    expect(regex.isAllowed(aRequest('alice', 'r', 'a'))).toBe(true);
    const glob = anIndex('glob', [aPolicy({ subjects: ['roles:*'], resources: ['r'], actions: ['a'] })], [aRole('roles:admin', ['alice'])]);
    expect(glob.isAllowed(aRequest('alice', 'r', 'a'))).toBe(true);
  });

  it('membership is exact: members are not patterns', () => {
    const index = anIndex(
      'regex',
      [aPolicy({ subjects: ['editors'], resources: ['r'], actions: ['a'] })],
      [aRole('editors', ['users:<.*>'])],
    );
    expect(index.isAllowed(aRequest('users:alice', 'r', 'a'))).toBe(false);
    expect(index.isAllowed(aRequest('users:<.*>', 'r', 'a'))).toBe(true);
  });

  it('roles are one level deep: a role that is a member of another role does not pass it on', () => {
    const index = anIndex(
      'exact',
      [aPolicy({ subjects: ['staff'], resources: ['r'], actions: ['a'] })],
      [aRole('staff', ['editors']), aRole('editors', ['alice'])],
    );
    expect(index.isAllowed(aRequest('editors', 'r', 'a'))).toBe(true);
    expect(index.isAllowed(aRequest('alice', 'r', 'a'))).toBe(false);
  });

  it('a deny for one of the subject’s roles overrides an allow for the subject', () => {
    const index = anIndex(
      'exact',
      [
        aPolicy({ subjects: ['alice'], resources: ['r'], actions: ['a'] }),
        aPolicy({ subjects: ['suspended'], resources: ['r'], actions: ['a'], effect: 'deny' }),
      ],
      [aRole('suspended', ['alice'])],
    );
    expect(index.isAllowed(aRequest('alice', 'r', 'a'))).toBe(false);
  });

  it('a subject in several roles gets the union of their grants', () => {
    const index = anIndex(
      'exact',
      [
        aPolicy({ subjects: ['readers'], resources: ['r'], actions: ['read'] }),
        aPolicy({ subjects: ['writers'], resources: ['r'], actions: ['write'] }),
      ],
      [aRole('readers', ['alice']), aRole('writers', ['alice'])],
    );
    expect(index.subjectsOf('alice').sort()).toEqual(['alice', 'readers', 'writers']);
    expect(index.isAllowed(aRequest('alice', 'r', 'read'))).toBe(true);
    expect(index.isAllowed(aRequest('alice', 'r', 'write'))).toBe(true);
  });

  it('replacing or removing a role updates membership', () => {
    const index = anIndex('exact', [aPolicy({ subjects: ['editors'], resources: ['r'], actions: ['a'] })], [aRole('editors', ['alice'])]);
    index.putRole(aRole('editors', ['bob']));
    expect(index.isAllowed(aRequest('alice', 'r', 'a'))).toBe(false);
    expect(index.isAllowed(aRequest('bob', 'r', 'a'))).toBe(true);
    index.removeRole('editors');
    expect(index.isAllowed(aRequest('bob', 'r', 'a'))).toBe(false);
    expect(index.subjectsOf('bob')).toEqual(['bob']);
  });
});
