/** A role on the wire (`serviceAccessControlPolicyRole`). */
export class RoleResponseDto {
  id!: string;
  description!: string;
  members!: string[];
}
