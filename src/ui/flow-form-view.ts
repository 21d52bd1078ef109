import type { UiContainer, UiNode, UiText } from '../self-service/index.js';
import { UI_TEXTS } from './ui-catalogue.js';

/** A message as the templates show it. */
export interface MessageView {
  readonly id: number;
  readonly text: string;
  readonly type: string;
  readonly isError: boolean;
}

/** One node as the `node` template renders it: the kind of control, and its attributes as text. */
export interface NodeView {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly value: string;
  readonly hasValue: boolean;
  readonly label: string;
  readonly required: boolean;
  readonly disabled: boolean;
  readonly pattern: string | undefined;
  readonly autocomplete: string | undefined;
  readonly checked: boolean;
  readonly isHidden: boolean;
  readonly isSubmit: boolean;
  readonly isCheckbox: boolean;
  readonly messages: readonly MessageView[];
}

export interface FormView {
  readonly action: string;
  readonly heading: string | undefined;
  readonly headingId: string;
  readonly nodes: readonly NodeView[];
}

export interface FormOptions {
  /** One form per method group (settings) rather than one form. */
  readonly splitByGroup: boolean;
  /** The password field sets a new password (registration, settings): browsers offer to generate one. */
  readonly newPassword: boolean;
  /**
   * What an empty sign-in identifier shows (the `login_hint` of the OAuth2 authorization the sign-in is
   * for): a value the person may change, never trusted for anything; the flow itself is untouched.
   */
  readonly identifierHint?: string | undefined;
}

/**
 * A flow's UI container as forms, generically, as Ory's reference UI renders it: one form of all
 * nodes, or, when the flow offers several methods (settings: `profile` and `password`), one form per
 * group, each with the shared `default` nodes (the CSRF token). Labels come from the nodes' meta, so
 * a trait added to the identity schema shows up with its title and no code.
 */
export function formsOf(ui: UiContainer, options: FormOptions): FormView[] {
  const groups = [...new Set(ui.nodes.map((node) => node.group).filter((group) => group !== 'default'))];
  if (!options.splitByGroup || groups.length <= 1) {
    return [{ action: ui.action, heading: undefined, headingId: 'form', nodes: ui.nodes.map((node) => nodeView(node, '', options)) }];
  }
  return groups.map((group) => ({
    action: ui.action,
    heading: UI_TEXTS.groups[group],
    headingId: `${group}-heading`,
    nodes: ui.nodes.filter((node) => node.group === 'default' || node.group === group).map((node) => nodeView(node, `${group}-`, options)),
  }));
}

export function messageViews(messages: readonly UiText[] | null | undefined): MessageView[] {
  return (messages ?? []).map((message) => ({ id: message.id, text: message.text, type: message.type, isError: message.type === 'error' }));
}

function nodeView(node: UiNode, idPrefix: string, options: FormOptions): NodeView {
  const { attributes } = node;
  const type = attributes.type;
  const hint = attributes.name === 'password_identifier' && textOf(attributes.value) === '' ? options.identifierHint : undefined;
  const value = hint ?? textOf(attributes.value);
  return {
    id: `${idPrefix}${attributes.name.replace(/[^A-Za-z0-9_-]/g, '-')}`,
    name: attributes.name,
    type,
    value,
    hasValue: hint !== undefined || (attributes.value !== undefined && attributes.value !== null && type !== 'password'),
    label: node.meta.label?.text ?? attributes.name,
    required: attributes.required === true,
    disabled: attributes.disabled,
    pattern: attributes.pattern,
    autocomplete: autocompleteOf(attributes.name, type, options.newPassword),
    checked: attributes.value === true,
    isHidden: type === 'hidden',
    isSubmit: type === 'submit',
    isCheckbox: type === 'checkbox',
    messages: messageViews(node.messages),
  };
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** Lets password managers and browsers fill the usual fields (WCAG 1.3.5, identify input purpose). */
function autocompleteOf(name: string, type: string, newPassword: boolean): string | undefined {
  if (type === 'password') return newPassword ? 'new-password' : 'current-password';
  if (type === 'email' || name === 'password_identifier') return 'username';
  if (name === 'traits.name.first') return 'given-name';
  if (name === 'traits.name.last') return 'family-name';
  return undefined;
}
