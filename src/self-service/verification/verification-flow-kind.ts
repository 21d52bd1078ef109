import { Injectable } from '@nestjs/common';
import { AddressTokensService } from '../../identities/index.js';
import { EmailTemplateId, type Email } from '../courier/email-template.js';
import type { LinkFlowKind } from '../recovery/link-flow-kind.js';
import { UiMessages } from '../ui/ui-messages.js';

/** Verification as a link flow: verification tokens, the verification e-mails and messages (Kratos' 107xxxx/407xxxx). */
@Injectable()
export class VerificationFlowKind implements LinkFlowKind {
  readonly kind = 'verification';
  readonly messages = {
    emailSent: UiMessages.verificationEmailSent,
    noStrategy: UiMessages.noVerificationStrategy,
    alreadyCompleted: UiMessages.verificationRetrySuccess,
    tokenInvalid: UiMessages.verificationTokenInvalid,
    expired: (expiredAt: Date) => UiMessages.verificationFlowExpired(expiredAt),
  };

  constructor(private readonly tokens: AddressTokensService) {}

  issueToken(email: string, flowId: string, expiresAt: Date): ReturnType<LinkFlowKind['issueToken']> {
    return this.tokens.issueVerificationToken(email, flowId, expiresAt);
  }

  email(recipient: string, url: string | undefined): Email {
    return url === undefined
      ? { template: EmailTemplateId.VerificationInvalid, recipient, model: { To: recipient } }
      : { template: EmailTemplateId.VerificationValid, recipient, model: { To: recipient, VerificationURL: url } };
  }
}
