import type { SchemaPath } from '../forms/schema-paths.js';
import type { UiNode } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { passwordNode, submitNode, traitNodes, traitPaths } from '../ui/ui-nodes.js';

/** The fields of a password registration submit: the form fields plus every trait of the schema. */
export function registrationFields(schemaDocument: Readonly<Record<string, unknown>>): SchemaPath[] {
  return [
    { name: 'csrf_token', type: 'string', required: false },
    { name: 'method', type: 'string', required: true },
    { name: 'password', type: 'string', required: true },
    ...traitPaths(schemaDocument),
  ];
}

/** The registration form after the CSRF node: the traits (group `password`, values re-filled), the password, "Sign up". */
export function registrationNodes(schemaDocument: Readonly<Record<string, unknown>>, traits: unknown = {}): UiNode[] {
  return [...traitNodes(schemaDocument, 'password', traits), passwordNode(), submitNode('password', 'password', UiMessages.signUp())];
}
