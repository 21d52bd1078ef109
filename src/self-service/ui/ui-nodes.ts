import { listSchemaPaths, traitsSchemaOf, type SchemaPath } from '../forms/schema-paths.js';
import type { UiInputType, UiNode, UiNodeGroup, UiText } from './ui-container.js';
import { UiMessages } from './ui-messages.js';

/**
 * Node builders for the forms of every flow, exactly as Kratos v0.6.3 renders them (
 * `ui/node/*.go`, `strategy/password/login.go`).
 */

/** The hidden CSRF field, first in every form; its value is '' in API flows. */
export function csrfNode(token: string): UiNode {
  return input('default', { name: 'csrf_token', type: 'hidden', value: token, required: true, disabled: false });
}

/** The login identifier; `value` is re-filled after a failed submit (and hinted when `refresh`). */
export function passwordIdentifierNode(value = ''): UiNode {
  return input('password', { name: 'password_identifier', type: 'text', value, required: true, disabled: false }, UiMessages.labelId());
}

/** The password input: never carries a value. */
export function passwordNode(): UiNode {
  return input('password', { name: 'password', type: 'password', required: true, disabled: false }, UiMessages.labelPassword());
}

/** The submit button that selects a method (`password`, `profile`, `link`), always last in its group. */
export function submitNode(group: UiNodeGroup, method: string, label: UiText): UiNode {
  return input(group, { name: 'method', type: 'submit', value: method, disabled: false }, label);
}

/** An `email` input (recovery and verification forms). */
export function emailNode(group: UiNodeGroup, value = ''): UiNode {
  return input(group, { name: 'email', type: 'email', value, required: true, disabled: false });
}

/**
 * One input per leaf trait of the identity schema (`traits.<dotted path>`), in schema order, with the
 * current value when there is one (settings, or a registration re-rendered after an error).
 * Type from the schema: number/integer → number, boolean → checkbox, string → text, overridden by
 * `format` (email, date-time → datetime-local, date, uri → url); `pattern` copied; `title` → label 1070002.
 */
export function traitNodes(schemaDocument: Readonly<Record<string, unknown>>, group: UiNodeGroup, traits: unknown): UiNode[] {
  return traitPaths(schemaDocument).map((path) => {
    const value = valueAt(traits, path.name.slice('traits.'.length));
    const attributes = {
      name: path.name,
      type: inputType(path),
      ...(value === undefined ? {} : { value }),
      ...(path.pattern === undefined ? {} : { pattern: path.pattern }),
      ...(path.required ? { required: true } : {}),
      disabled: false,
    };
    return input(group, attributes, path.title === undefined ? undefined : UiMessages.labelGenerated(path.title));
  });
}

/** The trait leaf paths of an identity schema, named `traits.<path>`. */
export function traitPaths(schemaDocument: Readonly<Record<string, unknown>>): SchemaPath[] {
  return listSchemaPaths(schemaDocument, traitsSchemaOf(schemaDocument), 'traits');
}

/** Input types that a string `format` implies (Kratos `NewInputFieldFromSchema`). */
const FORMAT_INPUT_TYPES: Readonly<Record<string, UiInputType>> = {
  email: 'email',
  'idn-email': 'email',
  'date-time': 'datetime-local',
  date: 'date',
  uri: 'url',
};

function inputType(path: SchemaPath): UiInputType {
  const byFormat = path.format === undefined ? undefined : FORMAT_INPUT_TYPES[path.format];
  if (byFormat !== undefined) return byFormat;
  const type = path.type === 'array' ? path.itemType : path.type;
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'checkbox';
  return 'text';
}

function valueAt(root: unknown, dotted: string): unknown {
  let node = root;
  for (const segment of dotted.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function input(group: UiNodeGroup, attributes: UiNode['attributes'], label?: UiText): UiNode {
  return { type: 'input', group, attributes, messages: null, meta: label === undefined ? {} : { label } };
}
