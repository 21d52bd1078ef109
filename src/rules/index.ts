export type {
  AccessRule,
  MatchingStrategy,
  RuleHandler,
  RuleMatch,
  RuleMatchSpec,
  RuleProblem,
  RulesChangeListener,
  RuleUpstream,
  RuleValidator,
} from './access-rule.js';
export { RulesError, RulesErrorCode } from './rules.errors.js';
export { RulesModule } from './rules.module.js';
export { RulesService } from './rules.service.js';
export { validateRulesDocument, type RulesDocumentFormat, type RulesDocumentReading } from './rules-document.js';
