import { IdentitiesError, IdentitiesErrorCode } from '../../identities/index.js';
import type { UiText } from '../ui/ui-container.js';
import { UiMessages } from '../ui/ui-messages.js';

/** Where a traits problem is shown: on the node of that input name, or (undefined) on the whole form. */
export interface TraitsProblem {
  readonly node: string | undefined;
  readonly message: UiText;
}

/**
 * A rejected traits write as a UI message (Kratos `container.ParseError`): a missing property →
 * 4000002 on its node, any other schema error → 4000001 with the validator's text on its node, a
 * login identifier or address taken by another identity → 4000007 on the form. Undefined for any
 * other error (the caller rethrows it).
 */
export function traitsProblemOf(error: unknown): TraitsProblem | undefined {
  if (!(error instanceof IdentitiesError)) return undefined;
  if (error.reason === IdentitiesErrorCode.Conflict) return { node: undefined, message: UiMessages.duplicateCredentials() };
  if (error.reason !== IdentitiesErrorCode.InvalidTraits) return undefined;
  const path = String(error.details?.['path'] ?? 'traits');
  const keyword = String(error.details?.['keyword'] ?? '');
  const problem = error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : error.message;
  const node = path === 'traits' ? undefined : path;
  if (keyword === 'required') return { node, message: UiMessages.validationRequired(path.split('.').pop() ?? path) };
  return { node, message: UiMessages.validationGeneric(problem) };
}
