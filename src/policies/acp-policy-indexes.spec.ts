import { describe, expect, it, vi } from 'vitest';
import { aPolicy, aRequest, aRole } from '../../test/support/acp-builders.js';
import type { ChangeNotifier } from '../database/change-notifier.js';
import type { AcpPoliciesRepository } from './acp-policies.repository.js';
import { ACP_TOPIC, AcpPolicyIndexes } from './acp-policy-indexes.js';
import type { AcpRolesRepository } from './acp-roles.repository.js';
import type { Flavor, PolicyDefinition, RoleDefinition } from './engine/policy-definition.js';
import type { PolicyIndex } from './engine/policy-index.js';

/** In-memory storage and a notifier that delivers locally, with call counters. */
function setup() {
  const policies = new Map<string, PolicyDefinition>();
  const roles = new Map<string, RoleDefinition>();
  const calls = { allPolicies: 0, allRoles: 0, patchedPolicies: [] as string[][], patchedRoles: [] as string[][] };
  let failNext = false;
  const maybeFail = (): void => {
    if (failNext) {
      failNext = false;
      throw new Error('database down');
    }
  };
  const policyRepository = {
    all: vi.fn(async () => {
      maybeFail();
      calls.allPolicies += 1;
      return [...policies.values()];
    }),
    findMany: vi.fn(async (_flavor: string, ids: readonly string[]) => {
      maybeFail();
      calls.patchedPolicies.push([...ids]);
      return ids.flatMap((id) => (policies.has(id) ? [policies.get(id)!] : []));
    }),
  };
  const roleRepository = {
    all: vi.fn(async () => {
      calls.allRoles += 1;
      return [...roles.values()];
    }),
    findMany: vi.fn(async (_flavor: string, ids: readonly string[]) => {
      calls.patchedRoles.push([...ids]);
      return ids.flatMap((id) => (roles.has(id) ? [roles.get(id)!] : []));
    }),
  };
  const listeners: Array<(key: string) => void> = [];
  const notifier = {
    subscribe: (topic: string, listener: (key: string) => void) => {
      expect(topic).toBe(ACP_TOPIC);
      listeners.push(listener);
    },
    publishWithin: async (_transaction: unknown, _topic: string, key: string) => {
      for (const listener of listeners) listener(key);
    },
    versionOf: () => () => Promise.resolve('0'),
  };
  const indexes = new AcpPolicyIndexes(
    policyRepository as unknown as AcpPoliciesRepository,
    roleRepository as unknown as AcpRolesRepository,
    notifier as unknown as ChangeNotifier,
  );
  indexes.onModuleInit();
  return {
    indexes,
    policies,
    roles,
    calls,
    failNextRead: () => {
      failNext = true;
    },
    remoteChange: (key: string) => listeners.forEach((listener) => listener(key)),
  };
}

/** What a repository does when the write commits: runs the announcement on its transaction. */
const announce = (indexes: AcpPolicyIndexes, flavor: Flavor, kind: 'policy' | 'role', id: string): Promise<void> =>
  indexes.announcement(flavor, kind, id)({ query: async () => undefined });

const allow = (id: string, subject = 'alice'): PolicyDefinition => aPolicy({ id, subjects: [subject], resources: ['r'], actions: ['a'] });
const decide = async (index: PolicyIndex | Promise<PolicyIndex>, subject = 'alice'): Promise<boolean> =>
  (await index).isAllowed(aRequest(subject, 'r', 'a'));

describe('AcpPolicyIndexes', () => {
  it('builds a flavor from storage on first use, then answers without I/O, synchronously', async () => {
    const { indexes, policies, calls } = setup();
    policies.set('p', allow('p'));
    expect(await decide(indexes.index('exact'))).toBe(true);
    expect(calls.allPolicies).toBe(1);
    const again = indexes.index('exact');
    expect(again).not.toBeInstanceOf(Promise);
    expect(await decide(again)).toBe(true);
    expect(calls.allPolicies).toBe(1);
  });

  it('re-reads only the announced rows and patches the index', async () => {
    const { indexes, policies, roles, calls } = setup();
    await indexes.index('exact');
    policies.set('p', allow('p', 'team'));
    await announce(indexes, 'exact', 'policy', 'p');
    roles.set('team', aRole('team', ['alice']));
    await announce(indexes, 'exact', 'role', 'team');
    expect(await decide(indexes.index('exact'))).toBe(true);
    expect(calls.patchedPolicies).toEqual([['p']]);
    expect(calls.patchedRoles).toEqual([['team']]);
    expect(calls.allPolicies).toBe(1);

    policies.delete('p');
    await announce(indexes, 'exact', 'policy', 'p');
    expect(await decide(indexes.index('exact'))).toBe(false);
  });

  it('keeps flavors apart: a change of one flavor leaves the others untouched', async () => {
    const { indexes, calls } = setup();
    await indexes.index('regex');
    await indexes.index('glob');
    await announce(indexes, 'regex', 'policy', 'x');
    expect(indexes.index('glob')).not.toBeInstanceOf(Promise);
    await indexes.index('regex');
    expect(calls.patchedPolicies).toEqual([['x']]);
  });

  it('rebuilds from storage after "*" (lost notifications) and after many changes', async () => {
    const { indexes, calls, remoteChange } = setup();
    await indexes.index('glob');
    remoteChange('*');
    await indexes.index('glob');
    expect(calls.allPolicies).toBe(2);
    for (let i = 0; i < 501; i += 1) remoteChange(`policy:glob:p${i}`);
    await indexes.index('glob');
    expect(calls.allPolicies).toBe(3);
    expect(calls.patchedPolicies).toEqual([]);
  });

  it('parses ids that contain colons', async () => {
    const { indexes, policies, calls, remoteChange } = setup();
    await indexes.index('regex');
    policies.set('a:b:c', allow('a:b:c'));
    remoteChange('policy:regex:a:b:c');
    expect(await decide(indexes.index('regex'))).toBe(true);
    expect(calls.patchedPolicies).toEqual([['a:b:c']]);
  });

  it('shares one load between concurrent decisions', async () => {
    const { indexes, calls } = setup();
    await Promise.all([indexes.index('exact'), indexes.index('exact'), indexes.index('exact')]);
    expect(calls.allPolicies).toBe(1);
  });

  it('fails the decision when storage fails, and starts from storage on the next one', async () => {
    const { indexes, policies, calls, failNextRead } = setup();
    await indexes.index('exact');
    policies.set('p', allow('p'));
    await announce(indexes, 'exact', 'policy', 'p');
    failNextRead();
    await expect(indexes.index('exact')).rejects.toThrow('database down');
    expect(await decide(indexes.index('exact'))).toBe(true);
    expect(calls.allPolicies).toBe(2);
  });

  it('ignores a stored policy that does not compile instead of failing every decision', async () => {
    const { indexes, policies } = setup();
    policies.set('broken', aPolicy({ id: 'broken', subjects: ['<('], resources: ['r'], actions: ['a'] }));
    policies.set('p', allow('p'));
    expect(await decide(indexes.index('regex'))).toBe(true);
  });
});
