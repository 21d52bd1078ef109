import { AppError, type AppErrorOptions } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';
import type { RuleProblem } from './access-rule.js';

export enum RulesErrorCode {
  /** No rule matches the request's method and URL. */
  NoMatch = 'no_match',
  /** More than one rule matches: never a decision, whichever rule would allow. */
  Ambiguous = 'ambiguous',
  RuleNotFound = 'rule_not_found',
  /** A rule or rules document breaks the rule schema or a registered validator. */
  InvalidRule = 'invalid_rule',
  /** The id belongs to a rule loaded from a file: change the file instead. */
  RuleFromFile = 'rule_from_file',
  /** A path or query parameter is malformed. */
  InvalidInput = 'invalid_input',
}

/** The only error the rules context throws. */
export class RulesError extends AppError {
  constructor(
    readonly reason: RulesErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    const [kind, wire] = wireOf(reason);
    super(kind, wire, message, options);
    this.name = 'RulesError';
  }

  static noMatch(): RulesError {
    return new RulesError(RulesErrorCode.NoMatch, 'Requested url does not match any rules.');
  }

  /** The ids are the administrator's own rule ids; naming them is what makes the 500 actionable. */
  static ambiguous(ruleIds: readonly string[]): RulesError {
    return new RulesError(RulesErrorCode.Ambiguous, 'Expected exactly one rule but found multiple rules.', {
      details: { rules: [...ruleIds] },
    });
  }

  static ruleNotFound(): RulesError {
    return new RulesError(RulesErrorCode.RuleNotFound, 'The requested rule does not exist.');
  }

  static invalidRule(problems: readonly RuleProblem[]): RulesError {
    const first = problems[0];
    const message = first === undefined ? 'The rule is invalid.' : `${first.path === '' ? 'rule' : first.path}: ${first.message}`;
    return new RulesError(RulesErrorCode.InvalidRule, message, {
      details: { problems: problems.map((problem) => ({ path: problem.path, message: problem.message })) },
    });
  }

  static ruleFromFile(): RulesError {
    return new RulesError(RulesErrorCode.RuleFromFile, 'A rule with this id is loaded from a rules file; change the file instead.');
  }

  static invalidInput(field: string, problem: string): RulesError {
    return new RulesError(RulesErrorCode.InvalidInput, `${field}: ${problem}`, { details: { field } });
  }
}

function wireOf(reason: RulesErrorCode): readonly [ErrorKind, string] {
  switch (reason) {
    case RulesErrorCode.NoMatch:
      return [ErrorKind.NotFound, 'no_match'];
    case RulesErrorCode.Ambiguous:
      return [ErrorKind.Internal, 'ambiguous'];
    case RulesErrorCode.RuleNotFound:
      return [ErrorKind.NotFound, 'rule_not_found'];
    case RulesErrorCode.InvalidRule:
      return [ErrorKind.BadRequest, 'invalid_rule'];
    case RulesErrorCode.RuleFromFile:
      return [ErrorKind.Conflict, 'rule_from_file'];
    case RulesErrorCode.InvalidInput:
      return [ErrorKind.BadRequest, 'invalid_request'];
  }
}
