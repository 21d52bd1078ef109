import { AppError } from '../../common/errors/app-error.js';
import type { PipelineSettings } from '../../config/app-config.js';
import { DecisionsError } from '../decisions.errors.js';
import { newSession, type AuthenticationSession, type JudgedRequest } from './authentication-session.js';
import { AUTHENTICATORS } from './authenticators.js';
import { AUTHORIZERS } from './authorizers.js';
import type { DecisionPorts } from './decision-ports.js';
import { ERROR_HANDLERS, type ErrorOutcome, type PreparedErrorHandler } from './error-handlers.js';
import { HandlerConfigError, isEnabled, mergedConfig, validated, type HandlerKind, type HandlerProblem } from './handler-config.js';
import { NotResponsible, type HandlerDefinition, type PreparedStep } from './handler.js';
import { MUTATORS } from './mutators.js';

/** A handler as a rule names it. */
export interface RuleHandlerRef {
  readonly handler: string;
  readonly config?: unknown;
}

/** What the pipeline reads of an access rule. */
export interface PipelineRule {
  readonly id: string;
  readonly authenticators: readonly RuleHandlerRef[];
  readonly authorizer: RuleHandlerRef;
  readonly mutators: readonly RuleHandlerRef[];
  readonly errors?: readonly RuleHandlerRef[];
}

/** A rule prepared once (configs merged and validated, templates parsed), or the problems that stop it. */
export interface CompiledRule {
  readonly id: string;
  readonly problems: readonly HandlerProblem[];
  readonly authenticators: readonly PreparedStep[];
  readonly authorizer: PreparedStep | undefined;
  readonly mutators: readonly PreparedStep[];
  /** The rule's error handlers; the global fallback when it names none. */
  readonly errors: readonly PreparedErrorHandler[];
}

const DEFINITIONS: Readonly<Record<Exclude<HandlerKind, 'errors'>, Readonly<Record<string, HandlerDefinition>>>> = {
  authenticators: AUTHENTICATORS,
  authorizers: AUTHORIZERS,
  mutators: MUTATORS,
};

/**
 * Oathkeeper's request pipeline as a pure engine: authenticators in order (one that is not responsible
 * passes to the next; any other failure stops; none responsible → 401), then the authorizer, then
 * every mutator; a failure goes to the first error handler whose `when` holds. Everything a handler
 * needs from outside comes through DecisionPorts.
 */
export class DecisionPipeline {
  private readonly fallback: readonly PreparedErrorHandler[];

  constructor(
    private readonly settings: PipelineSettings,
    private readonly isOwnUrl: (url: string) => boolean,
    /** `keto_engine_acp_ory` reads capture groups, which only the regexp strategy has (as in Oathkeeper). */
    private readonly matchingStrategy: 'regexp' | 'glob' = 'regexp',
  ) {
    const unknown = this.unknownGlobalHandlers();
    if (unknown.length > 0) throw new HandlerConfigError('DECISIONS_PIPELINE', `unknown handlers: ${unknown.join(', ')}`);
    const problems: HandlerProblem[] = [];
    this.fallback = this.errorHandlers(
      settings.errorFallback.map((handler) => ({ handler })),
      'DECISIONS_PIPELINE.errors.fallback',
      problems,
    );
    if (problems.length > 0) throw new HandlerConfigError(problems[0]!.path, problems[0]!.message);
  }

  /** Prepares a rule; never throws: a rule with problems is kept and answers 500 (reported at load). */
  compile(rule: PipelineRule): CompiledRule {
    const problems: HandlerProblem[] = [];
    if (rule.authenticators.length === 0) problems.push({ path: 'authenticators', message: 'at least one authenticator is required' });
    if (rule.mutators.length === 0) problems.push({ path: 'mutators', message: 'at least one mutator is required' });
    const authenticators = rule.authenticators.map((ref, index) => this.step('authenticators', ref, `authenticators.${index}`, problems));
    const authorizer = this.step('authorizers', rule.authorizer, 'authorizer', problems);
    if (rule.authorizer.handler === 'keto_engine_acp_ory' && this.matchingStrategy !== 'regexp') {
      problems.push({ path: 'authorizer.handler', message: 'keto_engine_acp_ory needs the regexp matching strategy' });
    }
    const mutators = rule.mutators.map((ref, index) => this.step('mutators', ref, `mutators.${index}`, problems));
    const errors =
      rule.errors === undefined || rule.errors.length === 0 ? this.fallback : this.errorHandlers(rule.errors, 'errors', problems);
    return {
      id: rule.id,
      problems,
      authenticators: authenticators.filter((step): step is PreparedStep => step !== undefined),
      authorizer,
      mutators: mutators.filter((step): step is PreparedStep => step !== undefined),
      errors,
    };
  }

  /**
   * Runs the rule's handlers: the session (subject, extra, headers for upstream) when every step
   * answered at once, else a promise of it. A failure is thrown when the failing step answered at
   * once, else rejected: no promise is made for a decision no step had to wait for, either way.
   */
  decide(
    rule: CompiledRule,
    request: JudgedRequest,
    captures: readonly string[],
    ports: DecisionPorts,
  ): AuthenticationSession | Promise<AuthenticationSession> {
    if (rule.problems.length > 0 || rule.authorizer === undefined) {
      throw DecisionsError.misconfigured(
        `Rule ${rule.id} is misconfigured: ${rule.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`,
      );
    }
    const session = newSession(request, captures);
    const authenticated = this.authenticate(rule, 0, request, session, ports);
    if (authenticated === undefined) return this.authorizeAndMutate(rule, 0, request, session, ports);
    return authenticated.then(() => this.authorizeAndMutate(rule, 0, request, session, ports));
  }

  /** The answer to a failure: the first of the rule's error handlers that applies, else the global fallback, else JSON. */
  handleError(rule: CompiledRule | undefined, error: unknown, request: JudgedRequest): ErrorOutcome {
    const appError = error instanceof AppError ? error : DecisionsError.failed('A handler failed.', error);
    for (const handler of rule?.errors ?? this.fallback) {
      const outcome = handler.handle(appError, request);
      if (outcome !== undefined) return outcome;
    }
    return { type: 'json', error: appError };
  }

  /**
   * The authenticators from `from` on, in order: the first that does not throw NotResponsible decides.
   * Undefined when one answered at once; a promise when one must wait (its NotResponsible, if it
   * comes, passes to the next one there). Throws when one refused, or when none is responsible.
   */
  private authenticate(
    rule: CompiledRule,
    from: number,
    request: JudgedRequest,
    session: AuthenticationSession,
    ports: DecisionPorts,
  ): Promise<void> | undefined {
    for (let index = from; index < rule.authenticators.length; index += 1) {
      let pending: void | Promise<void>;
      try {
        pending = rule.authenticators[index]!.run(request, session, ports);
      } catch (error) {
        if (error instanceof NotResponsible) continue;
        throw error;
      }
      if (pending === undefined) return undefined;
      return pending.then(undefined, (error: unknown) => {
        if (!(error instanceof NotResponsible)) throw error;
        return this.authenticate(rule, index + 1, request, session, ports);
      });
    }
    throw DecisionsError.unauthorized();
  }

  /** The authorizer (step 0) and then every mutator, from step `from` on; a promise only once a step waits. */
  private authorizeAndMutate(
    rule: CompiledRule,
    from: number,
    request: JudgedRequest,
    session: AuthenticationSession,
    ports: DecisionPorts,
  ): AuthenticationSession | Promise<AuthenticationSession> {
    for (let index = from; index <= rule.mutators.length; index += 1) {
      const step = index === 0 ? rule.authorizer! : rule.mutators[index - 1]!;
      const pending = step.run(request, session, ports);
      if (pending !== undefined) return pending.then(() => this.authorizeAndMutate(rule, index + 1, request, session, ports));
    }
    return session;
  }

  private step(
    kind: Exclude<HandlerKind, 'errors'>,
    ref: RuleHandlerRef,
    path: string,
    problems: HandlerProblem[],
  ): PreparedStep | undefined {
    const definition = Object.prototype.hasOwnProperty.call(DEFINITIONS[kind], ref.handler) ? DEFINITIONS[kind][ref.handler] : undefined;
    if (definition === undefined) {
      problems.push({ path: `${path}.handler`, message: `unknown ${singular(kind)} "${ref.handler}"` });
      return undefined;
    }
    try {
      const config = validated<Record<string, unknown>>(
        definition.schema,
        mergedConfig(this.settings, kind, ref.handler, ref.config),
        `${path}.config`,
      );
      if (!isEnabled(this.settings, kind, ref.handler, definition.reachesOtherHost(config, this.isOwnUrl))) {
        problems.push({
          path: `${path}.handler`,
          message: `${singular(kind)} "${ref.handler}" is disabled per configuration (DECISIONS_PIPELINE)`,
          deferred: true,
        });
        return undefined;
      }
      return definition.prepare(config, `${path}.config`, this.isOwnUrl);
    } catch (error) {
      if (!(error instanceof HandlerConfigError)) throw error;
      problems.push({ path: error.path, message: error.message });
      return undefined;
    }
  }

  private errorHandlers(refs: readonly RuleHandlerRef[], path: string, problems: HandlerProblem[]): PreparedErrorHandler[] {
    const prepared: PreparedErrorHandler[] = [];
    for (const [index, ref] of refs.entries()) {
      const where = `${path}.${index}`;
      const definition = Object.prototype.hasOwnProperty.call(ERROR_HANDLERS, ref.handler) ? ERROR_HANDLERS[ref.handler] : undefined;
      if (definition === undefined) {
        problems.push({ path: `${where}.handler`, message: `unknown error handler "${ref.handler}"` });
        continue;
      }
      if (!isEnabled(this.settings, 'errors', ref.handler, false)) {
        problems.push({
          path: `${where}.handler`,
          message: `error handler "${ref.handler}" is disabled per configuration (DECISIONS_PIPELINE)`,
          deferred: true,
        });
        continue;
      }
      try {
        const config = validated<Record<string, unknown>>(
          definition.schema,
          mergedConfig(this.settings, 'errors', ref.handler, ref.config),
          `${where}.config`,
        );
        prepared.push(definition.prepare(config, `${where}.config`));
      } catch (error) {
        if (!(error instanceof HandlerConfigError)) throw error;
        problems.push({ path: error.path, message: error.message });
      }
    }
    return prepared;
  }

  private unknownGlobalHandlers(): string[] {
    const unknown: string[] = [];
    for (const kind of ['authenticators', 'authorizers', 'mutators'] as const) {
      for (const name of Object.keys(this.settings[kind]))
        if (!Object.prototype.hasOwnProperty.call(DEFINITIONS[kind], name)) unknown.push(`${kind}.${name}`);
    }
    for (const name of [...Object.keys(this.settings.errors), ...this.settings.errorFallback]) {
      if (!Object.prototype.hasOwnProperty.call(ERROR_HANDLERS, name)) unknown.push(`errors.${name}`);
    }
    return unknown;
  }
}

function singular(kind: Exclude<HandlerKind, 'errors'>): string {
  return kind.slice(0, -1);
}
