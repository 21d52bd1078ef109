import type { IssuedToken } from '../../identities/index.js';
import type { Email } from '../courier/email-template.js';
import type { UiText } from '../ui/ui-container.js';

/** The states of recovery and verification flows (Kratos v0.6 `state`). */
export enum LinkFlowState {
  ChooseMethod = 'choose_method',
  SentEmail = 'sent_email',
  PassedChallenge = 'passed_challenge',
}

/**
 * What differs between the two flows that send a link by e-mail (recovery and verification): which
 * tokens, which e-mails, which messages. Everything else is LinkFlowSteps.
 */
export interface LinkFlowKind {
  readonly kind: 'recovery' | 'verification';
  /** A token for the address, bound to the flow and expiring with it; undefined for an unknown address. */
  issueToken(email: string, flowId: string, expiresAt: Date): Promise<IssuedToken | undefined>;
  /** The e-mail with the link (`url`), or, for an unknown address (`url` undefined), the one saying so. */
  email(recipient: string, url: string | undefined): Email;
  readonly messages: {
    readonly emailSent: () => UiText;
    readonly noStrategy: () => UiText;
    /** A submit to a flow that already passed its challenge. */
    readonly alreadyCompleted: () => UiText;
    readonly tokenInvalid: () => UiText;
    readonly expired: (expiredAt: Date) => UiText;
  };
}
