import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Page } from '../common/pagination/page.js';
import { AcpPoliciesRepository, type PolicyFilter } from './acp-policies.repository.js';
import { AcpPolicyIndexes } from './acp-policy-indexes.js';
import { parseId, parseText } from './acp-params.js';
import { compilePolicy } from './policy-validation.js';
import type { UpsertPolicyDto } from './dto/upsert-policy.dto.js';
import type { Flavor, PolicyDefinition } from './engine/policy-definition.js';
import { PoliciesError } from './policies.errors.js';

/** Policies of each flavor: validated on write (they must compile), stored, announced to the indexes. */
@Injectable()
export class AcpPoliciesService {
  constructor(
    private readonly policies: AcpPoliciesRepository,
    private readonly indexes: AcpPolicyIndexes,
  ) {}

  /** Creates or replaces a policy; returns it as stored (conditions normalised). */
  async upsert(flavor: Flavor, input: UpsertPolicyDto): Promise<PolicyDefinition> {
    const policy = compilePolicy(flavor, {
      id: input.id === undefined || input.id === '' ? randomUUID() : input.id,
      description: input.description ?? '',
      effect: input.effect,
      subjects: input.subjects ?? [],
      resources: input.resources ?? [],
      actions: input.actions ?? [],
      conditions: input.conditions ?? {},
    });
    await this.policies.upsert(flavor, policy, this.indexes.announcement(flavor, 'policy', policy.id));
    return policy;
  }

  async get(flavor: Flavor, id: string): Promise<PolicyDefinition> {
    const policy = await this.policies.find(flavor, parseId(id));
    if (policy === undefined) throw PoliciesError.policyNotFound();
    return policy;
  }

  async list(flavor: Flavor, page: Page, filter: PolicyFilter): Promise<PolicyDefinition[]> {
    return this.policies.list(flavor, page, {
      subject: optionalText(filter.subject, 'subject'),
      resource: optionalText(filter.resource, 'resource'),
      action: optionalText(filter.action, 'action'),
    });
  }

  /** Deleting a policy that does not exist succeeds (Keto). */
  async delete(flavor: Flavor, id: string): Promise<void> {
    const parsed = parseId(id);
    await this.policies.delete(flavor, parsed, this.indexes.announcement(flavor, 'policy', parsed));
  }
}

function optionalText(value: string | undefined, field: string): string | undefined {
  return value === undefined ? undefined : parseText(value, field);
}
