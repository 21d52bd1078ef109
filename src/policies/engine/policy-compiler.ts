import { compileCondition } from './condition-compiler.js';
import type { CompiledCondition } from './compiled-condition.js';
import type { CompiledPattern } from './compiled-pattern.js';
import { CompiledPolicy } from './compiled-policy.js';
import { PatternCompiler } from './pattern-compiler.js';
import { PatternSyntaxError } from './pattern-syntax.error.js';
import { PolicyCompileError } from './policy-compile.error.js';
import type { ConditionDefinition, Flavor, PolicyDefinition } from './policy-definition.js';

/** The shape a policy has before its conditions are checked (conditions as received). */
export interface PolicyInput extends Omit<PolicyDefinition, 'conditions'> {
  readonly conditions: Readonly<Record<string, unknown>>;
}

/**
 * Compiles policies of one flavor. Used on write (to refuse what does not compile, with the field
 * that is wrong) and when an index is built from storage.
 */
export class PolicyCompiler {
  private readonly patterns: PatternCompiler;

  constructor(readonly flavor: Flavor) {
    this.patterns = new PatternCompiler(flavor);
  }

  /** Throws PolicyCompileError. The returned policy's definition has its conditions normalised. */
  compile(input: PolicyInput): CompiledPolicy {
    const subjects = this.compilePatterns('subjects', input.subjects);
    const resources = this.compilePatterns('resources', input.resources);
    const actions = this.compilePatterns('actions', input.actions);
    const definitions: Record<string, ConditionDefinition> = {};
    const conditions: CompiledCondition[] = [];
    for (const [key, raw] of Object.entries(input.conditions)) {
      const { definition, condition } = compileCondition(key, raw);
      definitions[key] = definition;
      conditions.push(condition);
    }
    const definition: PolicyDefinition = { ...input, conditions: definitions };
    return new CompiledPolicy(definition, input.effect === 'deny', subjects, resources, actions, conditions);
  }

  private compilePatterns(field: string, patterns: readonly string[]): CompiledPattern[] {
    return patterns.map((pattern, index) => {
      try {
        return this.patterns.compile(pattern);
      } catch (error) {
        if (error instanceof PatternSyntaxError) {
          throw new PolicyCompileError(
            `${field}[${index}]`,
            `${JSON.stringify(pattern)} is not a valid ${this.flavor} pattern: ${error.message}`,
          );
        }
        throw error;
      }
    });
  }
}
