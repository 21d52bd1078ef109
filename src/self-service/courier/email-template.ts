/** The e-mails the self-service flows send (Kratos' courier template types). */
export enum EmailTemplateId {
  /** A recovery link for a known address. */
  RecoveryValid = 'recovery_valid',
  /** Someone asked to recover an account for an address nobody has: said so, without a link. */
  RecoveryInvalid = 'recovery_invalid',
  VerificationValid = 'verification_valid',
  VerificationInvalid = 'verification_invalid',
}

/** What each template may use. Names follow Kratos' template data (`{{RecoveryURL}}`, ...). */
export interface EmailTemplateModels {
  [EmailTemplateId.RecoveryValid]: { readonly To: string; readonly RecoveryURL: string };
  [EmailTemplateId.RecoveryInvalid]: { readonly To: string };
  [EmailTemplateId.VerificationValid]: { readonly To: string; readonly VerificationURL: string };
  [EmailTemplateId.VerificationInvalid]: { readonly To: string };
}

/** One e-mail to queue: a template, its recipient and the data it is rendered with. */
export type Email = {
  [T in EmailTemplateId]: { readonly template: T; readonly recipient: string; readonly model: EmailTemplateModels[T] };
}[EmailTemplateId];

/** The three parts of a template, as Kratos names its files: `email.subject`, `email.body`, `email.body.plaintext`. */
export interface TemplateSources {
  readonly subject: string;
  /** HTML: values are HTML-escaped. */
  readonly html: string;
  readonly text: string;
}

/** Folder of a template under COURIER_TEMPLATE_OVERRIDE_PATH (Kratos' layout: `recovery/valid`, ...). */
export function templateFolder(id: EmailTemplateId): string {
  return id.replace('_', '/');
}
