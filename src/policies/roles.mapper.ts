import type { RoleResponseDto } from './dto/role-response.dto.js';
import type { RoleDefinition } from './engine/policy-definition.js';

/** From an entity or a raw `RETURNING` row (same columns). */
export function roleFromEntity(entity: {
  readonly id: string;
  readonly description: string;
  readonly members: readonly string[];
}): RoleDefinition {
  return { id: entity.id, description: entity.description, members: entity.members };
}

export function toRoleResponse(role: RoleDefinition): RoleResponseDto {
  return { id: role.id, description: role.description, members: [...role.members] };
}
