import { Injectable } from '@nestjs/common';
import { AddressTokensService } from '../../identities/index.js';
import { EmailTemplateId, type Email } from '../courier/email-template.js';
import { UiMessages } from '../ui/ui-messages.js';
import type { LinkFlowKind } from './link-flow-kind.js';

/** Recovery as a link flow: recovery tokens, the recovery e-mails and messages (Kratos' 106xxxx/406xxxx). */
@Injectable()
export class RecoveryFlowKind implements LinkFlowKind {
  readonly kind = 'recovery';
  readonly messages = {
    emailSent: UiMessages.recoveryEmailSent,
    noStrategy: UiMessages.noRecoveryStrategy,
    alreadyCompleted: UiMessages.recoveryRetrySuccess,
    tokenInvalid: UiMessages.recoveryTokenInvalid,
    expired: (expiredAt: Date) => UiMessages.recoveryFlowExpired(expiredAt),
  };

  constructor(private readonly tokens: AddressTokensService) {}

  issueToken(email: string, flowId: string, expiresAt: Date): ReturnType<LinkFlowKind['issueToken']> {
    return this.tokens.issueRecoveryToken(email, flowId, expiresAt);
  }

  email(recipient: string, url: string | undefined): Email {
    return url === undefined
      ? { template: EmailTemplateId.RecoveryInvalid, recipient, model: { To: recipient } }
      : { template: EmailTemplateId.RecoveryValid, recipient, model: { To: recipient, RecoveryURL: url } };
  }
}
