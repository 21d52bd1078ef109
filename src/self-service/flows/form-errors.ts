import type { UiNode, UiText } from '../ui/ui-container.js';

/** Errors to show: per input name, and on the whole form. */
export interface FormErrors {
  readonly nodes?: Readonly<Record<string, UiText>>;
  readonly form?: readonly UiText[];
}

/** The nodes with each error attached to the node of its name; errors for names without a node go to `orphans`. */
export function attachNodeErrors(
  nodes: readonly UiNode[],
  errors: Readonly<Record<string, UiText>> = {},
): { nodes: UiNode[]; orphans: UiText[] } {
  const used = new Set<string>();
  const attached = nodes.map((node) => {
    const error = errors[node.attributes.name];
    if (error === undefined || node.attributes.type === 'submit') return node;
    used.add(node.attributes.name);
    return { ...node, messages: [...(node.messages ?? []), error] };
  });
  const orphans = Object.entries(errors)
    .filter(([name]) => !used.has(name))
    .map(([, error]) => error);
  return { nodes: attached, orphans };
}
