import type { PolicyResponseDto } from './dto/policy-response.dto.js';
import type { AcpPolicyEntity } from './entities/acp-policy.entity.js';
import type { PolicyDefinition } from './engine/policy-definition.js';

export function policyFromEntity(entity: AcpPolicyEntity): PolicyDefinition {
  return {
    id: entity.id,
    description: entity.description,
    effect: entity.effect,
    subjects: entity.subjects,
    resources: entity.resources,
    actions: entity.actions,
    conditions: entity.conditions,
  };
}

export function toPolicyResponse(policy: PolicyDefinition): PolicyResponseDto {
  return {
    id: policy.id,
    description: policy.description,
    subjects: [...policy.subjects],
    resources: [...policy.resources],
    actions: [...policy.actions],
    effect: policy.effect,
    conditions: { ...policy.conditions },
  };
}
