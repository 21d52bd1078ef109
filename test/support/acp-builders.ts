import type { Flavor, PolicyDefinition, RoleDefinition, AllowedRequest } from '../../src/policies/engine/policy-definition.js';
import { PolicyIndex } from '../../src/policies/engine/policy-index.js';

let sequence = 0;

/** A policy with sensible defaults: allow, no conditions, a unique id. */
export function aPolicy(
  overrides: Partial<PolicyDefinition> & Pick<PolicyDefinition, 'subjects' | 'resources' | 'actions'>,
): PolicyDefinition {
  sequence += 1;
  return { id: `policy-${sequence}`, description: '', effect: 'allow', conditions: {}, ...overrides };
}

export function aRole(id: string, members: string[]): RoleDefinition {
  return { id, description: '', members };
}

export function aRequest(subject: string, resource: string, action: string, context: Record<string, unknown> = {}): AllowedRequest {
  return { subject, resource, action, context };
}

/** An index of one flavor holding the given policies and roles. */
export function anIndex(flavor: Flavor, policies: PolicyDefinition[], roles: RoleDefinition[] = []): PolicyIndex {
  const index = new PolicyIndex(flavor);
  for (const policy of policies) index.putPolicy(policy);
  for (const role of roles) index.putRole(role);
  return index;
}

/** The JSON body of a policy for the admin API. */
export function policyBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    id: `policy-${sequence}`,
    description: 'a test policy',
    subjects: ['users:alice'],
    resources: ['articles:1'],
    actions: ['read'],
    effect: 'allow',
    ...overrides,
  };
}
