import { AcpLimits } from '../acp-limits.js';
import { AcpDescription, AcpId, AcpStringList } from './acp-fields.js';

/** Body of `PUT .../roles` (an empty or missing `id` gets a UUID; members replace the stored ones). */
export class UpsertRoleDto {
  @AcpId()
  id?: string;

  @AcpDescription()
  description?: string;

  @AcpStringList(AcpLimits.membersPerRole)
  members?: string[];
}
