import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, aRole } from '../../../test/support/acp-builders.js';
import { CompiledPolicy } from './compiled-policy.js';
import type { AllowedRequest, Flavor, PolicyDefinition } from './policy-definition.js';
import { PolicyIndex } from './policy-index.js';
import { PrefixIndex } from '../../common/collections/prefix-index.js';

/** A small deterministic generator, so that a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PATTERNS: Record<Flavor, (pick: (items: string[]) => string) => { subject: string; resource: string; action: string }> = {
  regex: (pick) => ({
    subject: pick(['users:alice', 'users:<[a-c].*>', '<.*>', 'role:<[0-9]>', 'role:1']),
    resource: pick(['articles:<[0-9]+>', 'articles:1', 'articles:<.*>:comments', '<.*>', 'printers:<.+>']),
    action: pick(['read', '<read|write>', '<.*>', 'delete']),
  }),
  glob: (pick) => ({
    subject: pick(['users:alice', 'users:*', '**', 'role:?', 'role:1']),
    resource: pick(['articles:*', 'articles:1', 'articles:**:comments', '*', 'printers:{a,b}']),
    action: pick(['read', '{read,write}', '*', 'delete']),
  }),
  exact: (pick) => ({
    subject: pick(['users:alice', 'users:bob', 'role:1', 'role:2']),
    resource: pick(['articles:1', 'articles:2', 'articles:1:comments', 'printers:a']),
    action: pick(['read', 'write', 'delete']),
  }),
};

describe('the index finds every candidate', () => {
  it.each(['regex', 'glob', 'exact'] as const)(
    '%s: same decisions as evaluating every policy, over random policies, roles and requests',
    (flavor) => {
      const next = random(42);
      const pick = (items: string[]): string => items[Math.floor(next() * items.length)]!;
      const index = new PolicyIndex(flavor);
      const policies: CompiledPolicy[] = [];
      for (let i = 0; i < 120; i += 1) {
        const patterns = [1, 2].map(() => PATTERNS[flavor](pick));
        const definition: PolicyDefinition = aPolicy({
          id: `p${i}`,
          effect: next() < 0.04 ? 'deny' : 'allow',
          subjects: patterns.map((p) => p.subject),
          resources: patterns.map((p) => p.resource),
          actions: patterns.map((p) => p.action),
        });
        policies.push(index.putPolicy(definition));
      }
      for (const role of ['role:1', 'role:2', 'role:3'])
        index.putRole(
          aRole(
            role,
            ['users:alice', 'users:carol'].filter(() => next() < 0.6),
          ),
        );

      const values = {
        subject: ['users:alice', 'users:bob', 'users:carol', 'role:1', 'x'],
        resource: ['articles:1', 'articles:22', 'articles:1:comments', 'articles:x:y:comments', 'printers:a', 'printers:', 'other'],
        action: ['read', 'write', 'delete', 'list'],
      };
      const outcomes = { allowed: 0, denied: 0 };
      for (const subject of values.subject) {
        for (const resource of values.resource) {
          for (const action of values.action) {
            const request = aRequest(subject, resource, action);
            const expected = bruteForce(policies, request, index.subjectsOf(subject));
            expect(index.isAllowed(request), `${subject} ${resource} ${action}`).toBe(expected);
            outcomes[expected ? 'allowed' : 'denied'] += 1;
          }
        }
      }
      expect(outcomes.allowed).toBeGreaterThan(10);
      expect(outcomes.denied).toBeGreaterThan(10);
    },
  );

  it('a decision evaluates only the policies whose literal prefix fits the request', () => {
    const index = new PolicyIndex('regex');
    const evaluated = new Set<string>();
    for (let tenant = 0; tenant < 1000; tenant += 1) {
      const policy = index.putPolicy(
        aPolicy({ id: `t${tenant}`, subjects: ['<.*>'], resources: [`tenants:${tenant}:<.*>`], actions: ['<.*>'] }),
      );
      const appliesTo = policy.appliesTo.bind(policy);
      policy.appliesTo = (request, subjects) => {
        evaluated.add(policy.id);
        return appliesTo(request, subjects);
      };
    }
    expect(index.isAllowed(aRequest('alice', 'tenants:17:doc', 'read'))).toBe(true);
    // `tenants:1:` and `tenants:17:` are the only prefixes of `tenants:17:doc` among the thousand.
    expect([...evaluated]).toEqual(['t17']);
  });

  it('keeps decisions right as policies are replaced and removed', () => {
    const index = new PolicyIndex('glob');
    index.putPolicy(aPolicy({ id: 'p', subjects: ['users:*'], resources: ['articles:*'], actions: ['read'] }));
    expect(index.isAllowed(aRequest('users:a', 'articles:1', 'read'))).toBe(true);
    index.putPolicy(aPolicy({ id: 'p', subjects: ['users:*'], resources: ['printers:*'], actions: ['read'] }));
    expect(index.isAllowed(aRequest('users:a', 'articles:1', 'read'))).toBe(false);
    expect(index.isAllowed(aRequest('users:a', 'printers:1', 'read'))).toBe(true);
    index.removePolicy('p');
    expect(index.isAllowed(aRequest('users:a', 'printers:1', 'read'))).toBe(false);
    expect(index.policyCount).toBe(0);
  });

  it('a policy that fails to compile leaves the index as it was', () => {
    const index = new PolicyIndex('regex');
    index.putPolicy(aPolicy({ id: 'p', subjects: ['u'], resources: ['r'], actions: ['a'] }));
    expect(() => index.putPolicy(aPolicy({ id: 'p', subjects: ['u'], resources: ['<('], actions: ['a'] }))).toThrow();
    expect(index.isAllowed(aRequest('u', 'r', 'a'))).toBe(true);
  });
});

describe('PrefixIndex', () => {
  const found = (index: PrefixIndex<string>, text: string): string[] => {
    const values: string[] = [];
    index.forEachCandidate(text, (value) => {
      values.push(value);
      return true;
    });
    return values.sort();
  };

  it('finds exact values by equality and prefixed values by every prefix, splitting edges as needed', () => {
    const index = new PrefixIndex<string>();
    index.addPrefixed('', 'any');
    index.addPrefixed('ab', 'ab*');
    index.addPrefixed('abc', 'abc*');
    index.addPrefixed('abd', 'abd*');
    index.addPrefixed('a', 'a*');
    index.addExact('abc', '=abc');
    expect(found(index, 'abcz')).toEqual(['a*', 'ab*', 'abc*', 'any']);
    expect(found(index, 'abc')).toEqual(['=abc', 'a*', 'ab*', 'abc*', 'any']);
    expect(found(index, 'abd')).toEqual(['a*', 'ab*', 'abd*', 'any']);
    expect(found(index, 'b')).toEqual(['any']);
    expect(found(index, '')).toEqual(['any']);
  });

  it('removes values and prunes what is left empty', () => {
    const index = new PrefixIndex<string>();
    index.addPrefixed('abc', 'abc*');
    index.addPrefixed('abd', 'abd*');
    index.addExact('x', '=x');
    index.removePrefixed('abc', 'abc*');
    index.removePrefixed('nothing', 'abd*');
    index.removeExact('x', '=x');
    expect(found(index, 'abc')).toEqual([]);
    expect(found(index, 'abd')).toEqual(['abd*']);
    expect(found(index, 'x')).toEqual([]);
  });

  it('stops when the visitor says so', () => {
    const index = new PrefixIndex<string>();
    index.addPrefixed('a', '1');
    index.addPrefixed('ab', '2');
    let visits = 0;
    expect(
      index.forEachCandidate('ab', () => {
        visits += 1;
        return false;
      }),
    ).toBe(false);
    expect(visits).toBe(1);
  });
});

function bruteForce(policies: CompiledPolicy[], request: AllowedRequest, subjects: string[]): boolean {
  let allowed = false;
  for (const policy of policies) {
    if (!policy.appliesTo(request, subjects)) continue;
    if (policy.deny) return false;
    allowed = true;
  }
  return allowed;
}
