import type { CompiledCondition } from './compiled-condition.js';
import type { CompiledPattern } from './compiled-pattern.js';
import type { AllowedRequest, PolicyDefinition } from './policy-definition.js';

export type Dimension = 'subjects' | 'resources' | 'actions';

/** A policy ready to evaluate. `visited` belongs to the index that holds it (one decision's mark). */
export class CompiledPolicy {
  visited = 0;

  constructor(
    readonly definition: PolicyDefinition,
    readonly deny: boolean,
    readonly subjects: readonly CompiledPattern[],
    readonly resources: readonly CompiledPattern[],
    readonly actions: readonly CompiledPattern[],
    readonly conditions: readonly CompiledCondition[],
  ) {}

  get id(): string {
    return this.definition.id;
  }

  /**
   * Whether the policy applies: the action, the resource and one of `subjects` (the request's subject
   * and the ids of its roles) each match one of its patterns, and every condition holds. Cheapest
   * checks first.
   */
  appliesTo(request: AllowedRequest, subjects: readonly string[]): boolean {
    return (
      anyMatches(this.actions, request.action) &&
      anyMatches(this.resources, request.resource) &&
      this.matchesSubject(subjects) &&
      this.conditionsHold(request)
    );
  }

  private matchesSubject(subjects: readonly string[]): boolean {
    for (const subject of subjects) if (anyMatches(this.subjects, subject)) return true;
    return false;
  }

  private conditionsHold(request: AllowedRequest): boolean {
    for (const condition of this.conditions) {
      const value = Object.hasOwn(request.context, condition.key) ? request.context[condition.key] : undefined;
      if (!condition.holds(value, request)) return false;
    }
    return true;
  }
}

function anyMatches(patterns: readonly CompiledPattern[], value: string): boolean {
  for (const pattern of patterns) if (pattern.test(value)) return true;
  return false;
}
