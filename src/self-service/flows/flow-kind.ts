import type { SelfServiceUrlsConfig } from '../../config/app-config.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';

/** The kinds of self-service flow; one table (`self_service_flows`) holds them all. */
export type FlowKind = 'login' | 'registration' | 'settings' | 'recovery' | 'verification';

/** `api`: native apps and API clients (JSON, no cookies); `browser`: HTML forms, cookies, CSRF. */
export type FlowType = 'api' | 'browser';

/** What differs between the kinds, in one place. */
export interface FlowKindInfo {
  /** Path of the submit endpoint (`POST <path>?flow=<id>`); init is `<path>/api|browser`, fetch `<path>/flows?id=`. */
  readonly path: string;
  /** The UI the browser is sent to, `?flow=<id>` appended. */
  readonly uiUrl: (urls: SelfServiceUrlsConfig) => string;
  /** The message a fresh flow carries when the previous one expired before its submit. */
  readonly expiredMessage: (expiredAt: Date) => UiText;
}

export const FLOW_KINDS: Readonly<Record<FlowKind, FlowKindInfo>> = {
  login: { path: '/self-service/login', uiUrl: (urls) => urls.login, expiredMessage: (at) => UiMessages.loginFlowExpired(at) },
  registration: {
    path: '/self-service/registration',
    uiUrl: (urls) => urls.registration,
    expiredMessage: (at) => UiMessages.registrationFlowExpired(at),
  },
  settings: { path: '/self-service/settings', uiUrl: (urls) => urls.settings, expiredMessage: (at) => UiMessages.settingsFlowExpired(at) },
  recovery: { path: '/self-service/recovery', uiUrl: (urls) => urls.recovery, expiredMessage: (at) => UiMessages.recoveryFlowExpired(at) },
  verification: {
    path: '/self-service/verification',
    uiUrl: (urls) => urls.verification,
    expiredMessage: (at) => UiMessages.verificationFlowExpired(at),
  },
};
