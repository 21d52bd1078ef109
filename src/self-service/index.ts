// The self-service context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export {
  BrowserUiService,
  type BrowserFlowView,
  type BrowserSessionView,
  type FlowKind,
  type UiContainer,
  type UiNode,
  type UiText,
} from './browser-ui.service.js';
export { FlowResponder } from './flows/flow-responder.js';
export { selfServiceRequestOf } from './flows/self-service-edge.js';
export type { SelfServiceRequest } from './flows/self-service-request.js';
export { SelfServiceModule } from './self-service.module.js';
export type { CachedWhoami } from './sessions/session-cache.js';
export { SessionsService } from './sessions/sessions.service.js';
// The messages and nodes a UiContainer is made of, for pages that render or build one.
export { UiMessages } from './ui/ui-messages.js';
export { csrfNode, passwordIdentifierNode, passwordNode, submitNode, traitNodes } from './ui/ui-nodes.js';
