import type { SchemaPath } from '../forms/schema-paths.js';
import type { UiNode } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';
import { passwordNode, submitNode, traitNodes, traitPaths } from '../ui/ui-nodes.js';

/** The fields of a settings submit: method, password, and every trait of the identity's schema. */
export function settingsFields(schemaDocument: Readonly<Record<string, unknown>>): SchemaPath[] {
  return [
    { name: 'csrf_token', type: 'string', required: false },
    { name: 'method', type: 'string', required: true },
    { name: 'password', type: 'string', required: false },
    ...traitPaths(schemaDocument),
  ];
}

/**
 * The settings form after the CSRF node (Kratos v0.6): the `profile` group (traits with their current
 * values, "Save" for method `profile`), then the `password` group (new password, "Save" for method `password`).
 */
export function settingsNodes(schemaDocument: Readonly<Record<string, unknown>>, traits: unknown): UiNode[] {
  return [
    ...traitNodes(schemaDocument, 'profile', traits),
    submitNode('profile', 'profile', UiMessages.labelSave()),
    passwordNode(),
    submitNode('password', 'password', UiMessages.labelSave()),
  ];
}
