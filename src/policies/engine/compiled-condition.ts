import type { AllowedRequest } from './policy-definition.js';

/** A condition ready to evaluate: `value` is the request context's own property at `key`, if any. */
export interface CompiledCondition {
  readonly key: string;
  holds(value: unknown, request: AllowedRequest): boolean;
}
