import { AcpLimits, CONTROL_CHARACTERS } from './acp-limits.js';
import { PolicyCompileError } from './engine/policy-compile.error.js';
import type { Flavor, PolicyDefinition } from './engine/policy-definition.js';
import { PolicyCompiler, type PolicyInput } from './engine/policy-compiler.js';
import { PoliciesError } from './policies.errors.js';

/**
 * The write-time check of a policy: it must compile for its flavor (patterns, condition types and
 * options) and its conditions must stay within bounds. Returns the policy as it will be stored.
 */
export function compilePolicy(flavor: Flavor, input: PolicyInput): PolicyDefinition {
  const keys = Object.keys(input.conditions);
  if (keys.length > AcpLimits.conditionsPerPolicy) {
    throw PoliciesError.invalidCondition('conditions', `conditions: at most ${AcpLimits.conditionsPerPolicy} conditions per policy`);
  }
  for (const key of keys) {
    if (key.length > AcpLimits.conditionKeyLength || CONTROL_CHARACTERS.test(key)) {
      throw PoliciesError.invalidCondition(
        'conditions',
        `conditions: keys are at most ${AcpLimits.conditionKeyLength} characters, without control characters`,
      );
    }
  }
  try {
    return new PolicyCompiler(flavor).compile(input).definition;
  } catch (error) {
    if (!(error instanceof PolicyCompileError)) throw error;
    if (error.field.startsWith('conditions')) throw PoliciesError.invalidCondition(error.field, error.message);
    throw PoliciesError.invalidPattern(error.field, error.message);
  }
}
