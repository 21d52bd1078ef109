import type { FlowEntity } from './entities/flow.entity.js';

/**
 * Flow entity → wire, per kind, with the fields of Kratos v0.6.3's `loginFlow`, `registrationFlow`,
 * `settingsFlow`, `recoveryFlow` and `verificationFlow`. `active` is omitted until a method was used;
 * internal fields (CSRF hash, context, return_to) are never serialized.
 */
export function toFlowResponse(flow: FlowEntity, identity?: unknown): Record<string, unknown> {
  const common = {
    id: flow.id,
    type: flow.type,
    expires_at: flow.expiresAt.toISOString(),
    issued_at: flow.issuedAt.toISOString(),
    request_url: flow.requestUrl,
    ...(flow.active === null ? {} : { active: flow.active }),
    ui: flow.ui,
  };
  switch (flow.kind) {
    case 'login':
      return { ...common, created_at: flow.createdAt.toISOString(), updated_at: flow.updatedAt.toISOString(), forced: flow.forced };
    case 'registration':
      return common;
    case 'settings':
      return { ...common, identity, state: flow.state };
    case 'recovery':
    case 'verification':
      return { ...common, state: flow.state };
  }
}
