import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import type { DecisionsConfig, LogConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { MigrationRunner } from '../database/migration-runner.js';
import { KeysService, type SerializedJwks } from '../keys/index.js';
import { RulesService, type AccessRule } from '../rules/index.js';
import { DecisionPortsAdapter, ID_TOKEN_MUTATOR_SET } from './decision-ports.adapter.js';
import { DecisionMetrics } from './decisions.metrics.js';
import type { AuthenticationSession, JudgedRequest } from './pipeline/authentication-session.js';
import { DecisionPipeline, type CompiledRule } from './pipeline/decision-pipeline.js';
import type { ErrorOutcome } from './pipeline/error-handlers.js';

export type Decision =
  | { readonly allowed: true; readonly rule: AccessRule; readonly session: AuthenticationSession }
  | { readonly allowed: false; readonly rule: AccessRule | undefined; readonly outcome: ErrorOutcome };

/**
 * Judges requests: the one rule that matches (RulesService), its handlers run by the pipeline with
 * ports into the other contexts, the failure answered by the rule's error handlers. Rules are
 * prepared once per version (configs merged, templates parsed) and checked when they are loaded.
 * Every decision is counted and logged once, at info, with the rule id and outcome.
 */
@Injectable()
export class DecisionsService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Decisions');
  private readonly pipeline: DecisionPipeline;
  private readonly compiled = new WeakMap<AccessRule, CompiledRule>();
  private readonly metrics = new DecisionMetrics();
  /** Decisions are logged at info: below that level no line object is built on the hot path. */
  private readonly logDecisions: boolean;

  constructor(
    @InjectConfig('log') log: LogConfig,
    @InjectConfig('decisions') decisions: DecisionsConfig,
    private readonly rules: RulesService,
    private readonly ports: DecisionPortsAdapter,
    private readonly keys: KeysService,
    private readonly migrations: MigrationRunner,
  ) {
    this.logDecisions = ['info', 'debug', 'trace'].includes(log.level);
    this.pipeline = new DecisionPipeline(decisions.pipeline, (url) => ports.isOwnUrl(url), rules.matchingStrategy);
  }

  onModuleInit(): void {
    this.rules.registerValidator((rule) => this.compile(rule).problems);
  }

  /** The id_token mutator's key set exists from the first start, so its JWKS is never empty. */
  async onApplicationBootstrap(): Promise<void> {
    if (await this.migrations.hasPending()) return;
    if (await this.keys.ensureSet(ID_TOKEN_MUTATOR_SET)) this.logger.log(`created key set ${ID_TOKEN_MUTATOR_SET} with one RS256 key`);
  }

  /** The decision, at once when every handler of the rule answered at once, else a promise of it; never a rejection. */
  decide(request: JudgedRequest, listener: string): Decision | Promise<Decision> {
    let rule: AccessRule | undefined;
    let compiled: CompiledRule | undefined;
    let session: AuthenticationSession | Promise<AuthenticationSession>;
    try {
      const match = this.rules.match(request.method, request.url);
      rule = match.rule;
      compiled = this.compile(rule);
      session = this.pipeline.decide(compiled, request, match.captures, this.ports);
    } catch (error) {
      return this.refused(rule, compiled, error, request, listener);
    }
    const matched = rule;
    if (!(session instanceof Promise)) return this.allowed(matched, session, request, listener);
    const prepared = compiled;
    return session.then(
      (decided) => this.allowed(matched, decided, request, listener),
      (error: unknown) => this.refused(matched, prepared, error, request, listener),
    );
  }

  /** The id_token mutator's public keys, for `/.well-known/jwks.json` of the admin and proxy listeners. */
  jwks(): Promise<SerializedJwks> {
    return this.ports.mutatorJwks();
  }

  private allowed(rule: AccessRule, session: AuthenticationSession, request: JudgedRequest, listener: string): Decision {
    this.record(rule.id, 'allowed', listener, request);
    return { allowed: true, rule, session };
  }

  private refused(
    rule: AccessRule | undefined,
    compiled: CompiledRule | undefined,
    error: unknown,
    request: JudgedRequest,
    listener: string,
  ): Decision {
    const outcome = this.pipeline.handleError(compiled, error, request);
    this.record(rule?.id ?? '', outcomeOf(error), listener, request);
    return { allowed: false, rule, outcome };
  }

  private compile(rule: AccessRule): CompiledRule {
    let compiled = this.compiled.get(rule);
    if (compiled === undefined) {
      compiled = this.pipeline.compile(rule);
      this.compiled.set(rule, compiled);
    }
    return compiled;
  }

  private record(rule: string, outcome: string, listener: string, request: JudgedRequest): void {
    this.metrics.count(rule, outcome, listener);
    if (!this.logDecisions) return;
    this.logger.log({
      msg: 'decision',
      rule: rule === '' ? undefined : rule,
      outcome,
      method: request.method,
      host: request.url.host,
      path: request.url.pathname,
      listener,
    });
  }
}

/** `allowed`, or the error code: `unauthorized`, `forbidden`, `no_match`, `ambiguous`, `rule_misconfigured`, … */
function outcomeOf(error: unknown): string {
  return error instanceof AppError ? error.code : 'internal_error';
}
