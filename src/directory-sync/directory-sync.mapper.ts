import type { ConnectionResponseDto } from './dto/connection-response.dto.js';
import type { EventResponseDto } from './dto/event-response.dto.js';
import type { DirectoryConnectionEntity } from './entities/directory-connection.entity.js';
import type { DirectoryEventEntity } from './entities/directory-event.entity.js';

/** Where a connection's directory sends its webhooks: the receiver on the public listener. */
export function webhookUrl(issuer: string, connectionId: string): string {
  return `${issuer}/webhooks/directory-sync/${connectionId}`;
}

/** Entity → wire. The sealed secrets are never mapped; the clear secret only when given (create, rotate). */
export function toConnectionResponse(
  connection: DirectoryConnectionEntity,
  issuer: string,
  secret?: string,
  now = new Date(),
): ConnectionResponseDto {
  const graceEnds = connection.previousSecretExpiresAt;
  return {
    id: connection.id,
    name: connection.name,
    schema_id: connection.schemaId,
    groups_namespace: connection.groupsNamespace,
    on_deactivate: connection.onDeactivate,
    webhook_url: webhookUrl(issuer, connection.id),
    ...(secret === undefined ? {} : { secret }),
    ...(graceEnds !== null && graceEnds > now ? { previous_secret_expires_at: graceEnds.toISOString() } : {}),
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}

export function toEventResponse(event: DirectoryEventEntity): EventResponseDto {
  return {
    id: event.id,
    received_at: event.receivedAt.toISOString(),
    event: event.event,
    directory_id: event.directoryId,
    object_id: event.objectId,
    group_id: event.groupId,
    outcome: event.outcome,
    error_code: event.errorCode,
    count: event.count,
  };
}
