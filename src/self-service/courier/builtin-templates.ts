import { EmailTemplateId, type TemplateSources } from './email-template.js';

/**
 * The built-in e-mails, worded as Kratos v0.6's (courier/template/templates/{recovery,verification}/
 * {valid,invalid}). Any part can be replaced by a file under COURIER_TEMPLATE_OVERRIDE_PATH.
 */
export const BUILTIN_TEMPLATES: Readonly<Record<EmailTemplateId, TemplateSources>> = {
  [EmailTemplateId.RecoveryValid]: {
    subject: 'Recover access to your account',
    html: `Hi,<br><br>please recover access to your account by clicking the following link:<br><br><a href="{{RecoveryURL}}">{{RecoveryURL}}</a>`,
    text: `Hi,

please recover access to your account by clicking the following link:

{{RecoveryURL}}
`,
  },
  [EmailTemplateId.RecoveryInvalid]: {
    subject: 'Account access attempted',
    html: `Hi,<br><br>you (or someone else) entered this email address when trying to recover access to an account.<br><br>However, this email address is not on our database of registered users and therefore the attempt has failed.<br><br>If this was you, check if you signed up using a different address.<br><br>If this was not you, please ignore this email.`,
    text: `Hi,

you (or someone else) entered this email address when trying to recover access to an account.

However, this email address is not on our database of registered users and therefore the attempt has failed.

If this was you, check if you signed up using a different address.

If this was not you, please ignore this email.
`,
  },
  [EmailTemplateId.VerificationValid]: {
    subject: 'Please verify your email address',
    html: `Hi, please verify your account by clicking the following link:<br><br><a href="{{VerificationURL}}">{{VerificationURL}}</a>`,
    text: `Hi, please verify your account by clicking the following link:

{{VerificationURL}}
`,
  },
  [EmailTemplateId.VerificationInvalid]: {
    subject: 'Someone tried to verify this email address',
    html: `Hi,<br><br>someone asked to verify this email address, but we were unable to find an account for this address.<br><br>If this was you, check if you signed up using a different address.<br><br>If this was not you, please ignore this email.`,
    text: `Hi,

someone asked to verify this email address, but we were unable to find an account for this address.

If this was you, check if you signed up using a different address.

If this was not you, please ignore this email.
`,
  },
};
