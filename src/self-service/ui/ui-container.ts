/**
 * The UI container of every self-service flow (Kratos v0.6 `ui`): the form a UI renders. Shapes and
 * enumerations as Kratos v0.6.3 serializes them: node `messages` is `null` when
 * empty, `meta` is always present, `ui.messages` is omitted when empty.
 */
export type UiTextType = 'info' | 'error';

/** A message with a stable numeric id (catalogue in ui-messages.ts); UIs translate by id. */
export interface UiText {
  readonly id: number;
  readonly text: string;
  readonly type: UiTextType;
  readonly context?: Readonly<Record<string, unknown>>;
}

export type UiNodeType = 'input' | 'text' | 'img' | 'a';
export type UiNodeGroup = 'default' | 'password' | 'oidc' | 'profile' | 'link';
export type UiInputType = 'text' | 'password' | 'number' | 'checkbox' | 'hidden' | 'email' | 'submit' | 'datetime-local' | 'date' | 'url';

export interface UiInputAttributes {
  readonly name: string;
  readonly type: UiInputType;
  /** Omitted for password inputs (never echoed back). */
  readonly value?: unknown;
  readonly pattern?: string;
  readonly required?: boolean;
  readonly disabled: boolean;
}

export interface UiNode {
  readonly type: UiNodeType;
  readonly group: UiNodeGroup;
  readonly attributes: UiInputAttributes;
  readonly messages: readonly UiText[] | null;
  readonly meta: { readonly label?: UiText };
}

export interface UiContainer {
  readonly action: string;
  readonly method: 'POST';
  readonly messages?: readonly UiText[];
  readonly nodes: readonly UiNode[];
}

/** The container with `messages` set (or dropped when empty), keeping the nodes. */
export function withMessages(ui: UiContainer, messages: readonly UiText[]): UiContainer {
  const { messages: _dropped, ...rest } = ui;
  return messages.length === 0 ? rest : { ...rest, messages };
}
