import { isEmailAddress } from '../../identities/index.js';
import type { SchemaPath } from '../forms/schema-paths.js';
import { stringField } from '../forms/submission.js';
import type { UiNode, UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { emailNode, submitNode } from '../ui/ui-nodes.js';

/** The only method of recovery and verification here: a link sent by e-mail. */
export const LINK_METHOD = 'link';

/** The fields of a recovery or verification submit (Kratos' `recovery.schema.json`), all strings. */
export const LINK_FIELDS: readonly SchemaPath[] = ['csrf_token', 'method', 'email'].map((name) => ({
  name,
  type: 'string',
  required: name === 'email',
}));

/** The form after the CSRF node: the address (re-filled after a submit) and the `link` button, as Kratos renders it. */
export function linkNodes(email = '', emailError?: UiText): UiNode[] {
  const address = emailNode('link', email);
  return [
    emailError === undefined ? address : { ...address, messages: [emailError] },
    submitNode('link', LINK_METHOD, UiMessages.labelSubmit()),
  ];
}

/** A decoded submit: the address to send to, or what is wrong with the form. */
export type LinkSubmission =
  | { readonly ok: true; readonly email: string }
  | { readonly ok: false; readonly email: string; readonly emailError?: UiText; readonly formError?: UiText };

/**
 * Checks a decoded submit. `method` may be omitted (the documented body has only `email`) but, when given,
 * must be `link`; `email` is required and must be an e-mail address.
 */
export function readLinkSubmission(body: Readonly<Record<string, unknown>>, noStrategy: () => UiText): LinkSubmission {
  const email = (stringField(body, 'email') ?? '').trim();
  const method = stringField(body, 'method');
  if (method !== undefined && method !== '' && method !== LINK_METHOD) return { ok: false, email, formError: noStrategy() };
  if (email === '') return { ok: false, email, emailError: UiMessages.validationRequired('email') };
  if (!isEmailAddress(email)) return { ok: false, email, emailError: UiMessages.validationInvalidFormat(email, 'email') };
  return { ok: true, email };
}

/** The link in the e-mail (Kratos v0.6's form, as admin recovery links): `<issuer><path>?flow=<id>&token=<token>`. */
export function linkUrl(issuer: string, path: string, flowId: string, token: string): string {
  return `${issuer}${path}?${new URLSearchParams({ flow: flowId, token }).toString()}`;
}
