// The consent context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export type {
  AuthorizationContext,
  BrowserState,
  ConsentGrant,
  ConsentStep,
  CookieInstruction,
  OidcContext,
  Prompt,
} from './authorization-context.js';
export { ConsentAdminService, type ConsentRequestView, type LoginRequestView } from './consent-admin.service.js';
export { LOGIN_SESSION_COOKIE } from './consent-cookies.js';
export { ConsentFlowService } from './consent-flow.service.js';
export { ConsentError, ConsentErrorCode } from './consent.errors.js';
export { ConsentModule } from './consent.module.js';
export type { EndedLoginSession, LogoutCompletion, LogoutParticipant, LogoutStep } from './logout-hand-off.js';
export { scopeAllowed, type ScopeRules } from './scope-strategy.js';
