import { Module } from '@nestjs/common';
import { IdentitiesModule } from '../identities/index.js';
import { BrowserUiService } from './browser-ui.service.js';
import { CourierModule } from './courier/courier.module.js';
import { CsrfProtection } from './csrf/csrf-protection.js';
import { BrowserErrorFilter } from './errors/browser-error.filter.js';
import { ErrorContainersService } from './errors/error-containers.service.js';
import { SelfServiceErrorsController } from './errors/self-service-errors.controller.js';
import { SelfServiceAdminController } from './self-service-admin.controller.js';
import { FlowResponder } from './flows/flow-responder.js';
import { FlowsRepository } from './flows/flows.repository.js';
import { FlowsService } from './flows/flows.service.js';
import { LoginController } from './login/login.controller.js';
import { PasswordLoginMethod } from './login/password-login.method.js';
import { LoginFlows } from './login/login-flows.service.js';
import { LoginThrottle } from './login/login-throttle.js';
import { PasswordVerifier } from './login/password-verifier.js';
import { LogoutController } from './logout/logout.controller.js';
import { LogoutService } from './logout/logout.service.js';
import { RegistrationController } from './registration/registration.controller.js';
import { PasswordRegistrationMethod } from './registration/password-registration.method.js';
import { RegistrationFlows } from './registration/registration-flows.service.js';
import { SettingsController } from './settings/settings.controller.js';
import { SettingsAnswers } from './settings/settings-answers.js';
import { PasswordSettingsMethod, ProfileSettingsMethod } from './settings/settings-methods.js';
import { SettingsFlows } from './settings/settings-flows.service.js';
import { PasswordPolicyModule } from './password-policy/password-policy.module.js';
import { LinkFlowSteps } from './recovery/link-flow-steps.js';
import { RecoveryController } from './recovery/recovery.controller.js';
import { RecoveryFlowKind } from './recovery/recovery-flow-kind.js';
import { RecoveryFlows } from './recovery/recovery-flows.service.js';
import { SessionCache } from './sessions/session-cache.js';
import { SessionsRepository } from './sessions/sessions.repository.js';
import { SessionsService } from './sessions/sessions.service.js';
import { SessionAccessObserver } from './sessions/session-access-observer.js';
import { WhoamiRoute } from './sessions/whoami.route.js';
import { VerificationController } from './verification/verification.controller.js';
import { VerificationFlowKind } from './verification/verification-flow-kind.js';
import { VerificationFlows } from './verification/verification-flows.service.js';
import { VerificationSender } from './verification/verification-sender.js';

/**
 * Self-service: the flow framework (flows, UI containers, CSRF, form decoding, the responder, the error UI
 * hand-off), sessions and whoami, and the flows built on it. Exports SessionsService for contexts that
 * authenticate requests by session (decisions), and BrowserUiService for the built-in pages (ui).
 */
@Module({
  imports: [IdentitiesModule, PasswordPolicyModule, CourierModule],
  controllers: [
    SelfServiceErrorsController,
    LoginController,
    RegistrationController,
    SettingsController,
    LogoutController,
    RecoveryController,
    VerificationController,
    SelfServiceAdminController,
  ],
  providers: [
    BrowserUiService,
    CsrfProtection,
    BrowserErrorFilter,
    ErrorContainersService,
    FlowResponder,
    FlowsRepository,
    FlowsService,
    LoginFlows,
    LoginThrottle,
    LogoutService,
    PasswordLoginMethod,
    PasswordVerifier,
    PasswordRegistrationMethod,
    RegistrationFlows,
    SessionAccessObserver,
    SessionCache,
    SessionsRepository,
    SessionsService,
    SettingsAnswers,
    SettingsFlows,
    ProfileSettingsMethod,
    PasswordSettingsMethod,
    WhoamiRoute,
    LinkFlowSteps,
    RecoveryFlowKind,
    RecoveryFlows,
    VerificationFlowKind,
    VerificationFlows,
    VerificationSender,
  ],
  exports: [SessionsService, BrowserUiService, FlowResponder],
})
export class SelfServiceModule {}
