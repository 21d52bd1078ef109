import type { SchemaPath } from '../forms/schema-paths.js';
import type { UiNode } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { passwordIdentifierNode, passwordNode, submitNode } from '../ui/ui-nodes.js';

/** The fields of a password login submit (Kratos' `login.schema.json`): all strings. */
export const LOGIN_FIELDS: readonly SchemaPath[] = ['csrf_token', 'method', 'password', 'password_identifier'].map((name) => ({
  name,
  type: 'string',
  required: name !== 'csrf_token',
}));

/**
 * The password login form after the CSRF node: identifier (re-filled after a failed submit), password
 * (never re-filled), and the `password` method button.
 */
export function loginNodes(identifier = ''): UiNode[] {
  return [passwordIdentifierNode(identifier), passwordNode(), submitNode('password', 'password', UiMessages.signIn())];
}
