import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, anIndex } from '../../../test/support/acp-builders.js';
import { compileCondition } from './condition-compiler.js';
import type { ConditionDefinition } from './policy-definition.js';
import { PolicyCompileError } from './policy-compile.error.js';

/** Whether a policy guarded by one condition at `key` allows the request with this context. */
function allowedWith(
  condition: ConditionDefinition,
  context: Record<string, unknown>,
  key = 'k',
  subject = 'users:alice',
  resource = 'articles:1',
): boolean {
  const index = anIndex('exact', [
    aPolicy({ subjects: [subject], resources: [resource], actions: ['read'], conditions: { [key]: condition } }),
  ]);
  return index.isAllowed(aRequest(subject, resource, 'read', context));
}

describe('conditions', () => {
  it('StringEqualCondition: the context value is that string', () => {
    const condition = { type: 'StringEqualCondition', options: { equals: 'gold' } };
    expect(allowedWith(condition, { k: 'gold' })).toBe(true);
    expect(allowedWith(condition, { k: 'silver' })).toBe(false);
    expect(allowedWith(condition, {})).toBe(false);
  });

  it('StringMatchCondition: an unanchored regular expression finds a match in the context value', () => {
    const condition = { type: 'StringMatchCondition', options: { matches: 'ad.min' } };
    expect(allowedWith(condition, { k: 'the-adXmin-team' })).toBe(true);
    expect(allowedWith(condition, { k: 'user' })).toBe(false);
    expect(allowedWith(condition, { k: 42 })).toBe(false);
  });

  it('CIDRCondition: the context value is an address inside the block (the reference example)', () => {
    const condition = { type: 'CIDRCondition', options: { cidr: '192.168.0.0/16' } };
    expect(allowedWith(condition, { remoteIPAddress: '192.168.0.5' }, 'remoteIPAddress')).toBe(true);
    expect(allowedWith(condition, { remoteIPAddress: '::ffff:192.168.3.4' }, 'remoteIPAddress')).toBe(true);
    expect(allowedWith(condition, { remoteIPAddress: '10.0.0.1' }, 'remoteIPAddress')).toBe(false);
    expect(allowedWith(condition, { remoteIPAddress: 'not an ip' }, 'remoteIPAddress')).toBe(false);
    expect(allowedWith(condition, { otherKey: '192.168.0.5' }, 'remoteIPAddress')).toBe(false);
    expect(allowedWith({ type: 'CIDRCondition', options: { cidr: '2001:db8::/32' } }, { k: '2001:db8::1' })).toBe(true);
  });

  it('EqualsSubjectCondition: the context value is the request subject', () => {
    const condition = { type: 'EqualsSubjectCondition', options: {} };
    expect(allowedWith(condition, { owner: 'users:alice' }, 'owner')).toBe(true);
    expect(allowedWith(condition, { owner: 'users:bob' }, 'owner')).toBe(false);
  });

  it('StringPairsEqualCondition: a non-empty list of equal two-string pairs', () => {
    const condition = { type: 'StringPairsEqualCondition', options: {} };
    expect(
      allowedWith(condition, {
        k: [
          ['a', 'a'],
          ['b', 'b'],
        ],
      }),
    ).toBe(true);
    expect(
      allowedWith(condition, {
        k: [
          ['a', 'a'],
          ['b', 'c'],
        ],
      }),
    ).toBe(false);
    expect(allowedWith(condition, { k: [] })).toBe(false);
    expect(allowedWith(condition, { k: [['a', 'a', 'a']] })).toBe(false);
    expect(allowedWith(condition, { k: 'aa' })).toBe(false);
  });

  it('ResourceContainsCondition: value and delimiter from options (Keto truth table)', () => {
    const withDelimiter = { type: 'ResourceContainsCondition', options: { value: 'bar', delimiter: ':' } };
    expect(allowedWith(withDelimiter, {}, 'k', 'users:alice', 'foo:bar:baz')).toBe(true);
    expect(allowedWith({ type: 'ResourceContainsCondition', options: { value: 'foo:ba', delimiter: ':' } }, {}, 'k', 'u', 'foo:bar')).toBe(
      false,
    );
    expect(allowedWith({ type: 'ResourceContainsCondition', options: { value: 'foo:ba' } }, {}, 'k', 'u', 'foo:bar')).toBe(true);
  });

  it('ResourceContainsCondition: value and delimiter from the context when options have none (ladon)', () => {
    const condition = { type: 'ResourceContainsCondition', options: {} };
    expect(allowedWith(condition, { k: { value: 'bar', delimiter: ':' } }, 'k', 'u', 'foo:bar:baz')).toBe(true);
    expect(allowedWith(condition, { k: { value: 'ba', delimiter: ':' } }, 'k', 'u', 'foo:bar:baz')).toBe(false);
    expect(allowedWith(condition, { k: { value: '' } }, 'k', 'u', 'foo:bar:baz')).toBe(false);
    expect(allowedWith(condition, {}, 'k', 'u', 'foo:bar:baz')).toBe(false);
  });

  it('BooleanCondition: the context value is that boolean', () => {
    const condition = { type: 'BooleanCondition', options: { value: true } };
    expect(allowedWith(condition, { k: true })).toBe(true);
    expect(allowedWith(condition, { k: false })).toBe(false);
    expect(allowedWith(condition, { k: 'true' })).toBe(false);
  });

  it('every condition must hold', () => {
    const index = anIndex('exact', [
      aPolicy({
        subjects: ['u'],
        resources: ['r'],
        actions: ['a'],
        conditions: {
          ip: { type: 'CIDRCondition', options: { cidr: '10.0.0.0/8' } },
          mfa: { type: 'BooleanCondition', options: { value: true } },
        },
      }),
    ]);
    expect(index.isAllowed(aRequest('u', 'r', 'a', { ip: '10.1.2.3', mfa: true }))).toBe(true);
    expect(index.isAllowed(aRequest('u', 'r', 'a', { ip: '10.1.2.3', mfa: false }))).toBe(false);
    expect(index.isAllowed(aRequest('u', 'r', 'a', { ip: '11.1.2.3', mfa: true }))).toBe(false);
  });

  it('reads only the context object’s own keys (no prototype properties)', () => {
    const condition = { type: 'StringMatchCondition', options: { matches: 'function' } };
    expect(allowedWith(condition, {}, 'constructor')).toBe(false);
    expect(allowedWith({ type: 'StringMatchCondition', options: { matches: '.*' } }, {}, 'toString')).toBe(false);
  });

  it('a deny policy whose condition does not hold does not deny', () => {
    const index = anIndex('exact', [
      aPolicy({ subjects: ['u'], resources: ['r'], actions: ['a'] }),
      aPolicy({
        subjects: ['u'],
        resources: ['r'],
        actions: ['a'],
        effect: 'deny',
        conditions: { night: { type: 'BooleanCondition', options: { value: true } } },
      }),
    ]);
    expect(index.isAllowed(aRequest('u', 'r', 'a', { night: false }))).toBe(true);
    expect(index.isAllowed(aRequest('u', 'r', 'a', { night: true }))).toBe(false);
  });

  it('refuses unknown types and unusable options at write time, naming the field', () => {
    const cases: Array<[unknown, string]> = [
      [{ type: 'UnknownCondition', options: {} }, 'conditions.k.type'],
      [{ options: {} }, 'conditions.k.type'],
      ['StringEqualCondition', 'conditions.k'],
      [{ type: 'StringEqualCondition', options: [] }, 'conditions.k.options'],
      [{ type: 'StringEqualCondition', options: {} }, 'conditions.k.options.equals'],
      [{ type: 'StringMatchCondition', options: { matches: '(' } }, 'conditions.k.options.matches'],
      [{ type: 'StringMatchCondition', options: { matches: '(a)\\1' } }, 'conditions.k.options.matches'],
      [{ type: 'CIDRCondition', options: { cidr: '192.168.0.0' } }, 'conditions.k.options.cidr'],
      [{ type: 'CIDRCondition', options: { cidr: '192.168.0.0/33' } }, 'conditions.k.options.cidr'],
      [{ type: 'BooleanCondition', options: { value: 'true' } }, 'conditions.k.options.value'],
      [{ type: 'ResourceContainsCondition', options: { value: '' } }, 'conditions.k.options.value'],
    ];
    for (const [raw, field] of cases) {
      let error: unknown;
      try {
        compileCondition('k', raw);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(raw)).toBeInstanceOf(PolicyCompileError);
      expect((error as PolicyCompileError).field).toBe(field);
    }
  });

  it('keeps only the known options of each type', () => {
    expect(compileCondition('k', { type: 'CIDRCondition', options: { cidr: '10.0.0.0/8', extra: 1 } }).definition).toEqual({
      type: 'CIDRCondition',
      options: { cidr: '10.0.0.0/8' },
    });
    expect(compileCondition('k', { type: 'EqualsSubjectCondition' }).definition).toEqual({ type: 'EqualsSubjectCondition', options: {} });
  });
});
