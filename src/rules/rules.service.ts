import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { basename } from 'node:path';
import type { Page } from '../common/pagination/page.js';
import type { RulesConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { type Announce, ChangeNotifier } from '../database/change-notifier.js';
import { ReadinessReports } from '../health/index.js';
import type { AccessRule, MatchingStrategy, RuleMatch, RuleProblem, RulesChangeListener, RuleValidator } from './access-rule.js';
import { RuleIndex } from './engine/rule-index.js';
import { RuleFiles, type RuleFileReading } from './rule-files.js';
import { MAX_RULE_ID_LENGTH, readRule } from './rule-shape.js';
import { RulesError } from './rules.errors.js';
import { RulesRepository, type StoredRule } from './rules.repository.js';

/** ChangeNotifier topic; the key is a stored rule's id, or `*` for all of them. */
export const RULES_TOPIC = 'rules';
const READINESS_COMPONENT = 'rules';
const STORED_RETRY_MS = 5000;

/**
 * A rules file's last good rules (undefined until it first loads), what is wrong with it now, and the
 * deferred problems of the rules in force (they answer 500 until fixed).
 */
interface FileState {
  rules: readonly AccessRule[] | undefined;
  problems: readonly RuleProblem[];
  deferred: readonly RuleProblem[];
}

interface InForce {
  readonly rule: AccessRule;
  readonly fingerprint: string;
}

export interface PutOutcome {
  readonly rule: AccessRule;
  readonly created: boolean;
}

/**
 * The access rules in force on this instance, from two sources: the files named by RULES_FILES
 * (watched; a file that does not load keeps its last good rules and is reported in the log and by
 * readiness) and the rules stored through the admin API (announced to every instance over
 * ChangeNotifier). An id defined twice is a load error, never an override: a file bringing an id
 * already in force elsewhere does not load, a stored rule whose id a file defines stays out of force.
 *
 * Every change of state runs in one queue, and each ends by patching the compiled index: only the
 * rules whose content changed are recompiled, and `match` (synchronous, no I/O) always sees a whole
 * state, never half of one.
 */
@Injectable()
export class RulesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RulesService');
  private readonly strategy: MatchingStrategy;
  private readonly files: RuleFiles;
  private readonly index: RuleIndex;
  private readonly validators: RuleValidator[] = [];
  private readonly listeners: RulesChangeListener[] = [];
  private readonly fileStates = new Map<string, FileState>();
  /** Stored rules that pass validation, and the problems of those that do not (or clash with a file). */
  private readonly stored = new Map<string, AccessRule>();
  private readonly storedProblems = new Map<string, string>();
  /** Stored rules in force that answer 500 until fixed (a handler switched off by configuration). */
  private readonly storedDeferred = new Map<string, string>();
  private readonly inForce = new Map<string, InForce>();
  private queue: Promise<void> = Promise.resolve();
  private started = false;
  private storedUnreadable = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private shadowed: readonly string[] = [];

  constructor(
    @InjectConfig('rules') rules: RulesConfig,
    private readonly repository: RulesRepository,
    private readonly notifier: ChangeNotifier,
    private readonly readiness: ReadinessReports,
  ) {
    this.strategy = rules.matchingStrategy;
    this.files = new RuleFiles(rules.files);
    this.index = new RuleIndex(this.strategy);
  }

  /** After every module's init, so that the validators the decisions context registers apply to the first load. */
  async onApplicationBootstrap(): Promise<void> {
    this.notifier.subscribe(RULES_TOPIC, (key) => this.enqueue(() => (key === '*' ? this.reloadStored() : this.refreshStored(key))));
    await this.loadStored();
    await this.serially(() => this.reloadFiles());
    this.started = true;
    this.files.watch(() => this.enqueue(() => this.reloadFiles()));
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.retryTimer);
    await this.files.close();
  }

  /**
   * The one rule matching `method` and the URL's `scheme://host/path`. Throws RulesError `no_match`
   * (404) or `ambiguous` (500, `details.rules` naming the matching rules).
   */
  match(method: string, url: URL): RuleMatch {
    return this.index.match(method, url);
  }

  /** How `match.url` is read, for handlers that only make sense with one strategy. */
  get matchingStrategy(): MatchingStrategy {
    return this.strategy;
  }

  /** Adds a check every rule must pass, from any source; rules already loaded are checked again. */
  registerValidator(validate: RuleValidator): void {
    this.validators.push(validate);
    if (!this.started) return;
    this.enqueue(async () => {
      const rows = await this.repository.all();
      const readings = await this.files.read(this.strategy, this.validators);
      // Last good file rules were checked without this validator: they must pass it to stay.
      this.fileStates.clear();
      this.takeAllStored(rows);
      this.takeFiles(readings);
      this.apply();
    });
  }

  onChange(listener: RulesChangeListener): void {
    this.listeners.push(listener);
  }

  /** The rules in force, by id. */
  list(page: Page): AccessRule[] {
    return this.index.all().slice(page.offset, page.offset + page.limit);
  }

  get(id: string): AccessRule {
    const rule = this.index.get(id);
    if (rule === undefined) throw RulesError.ruleNotFound();
    return rule;
  }

  /** Creates or replaces a stored rule; in force on this instance when this returns, on the others soon after. */
  async put(id: string, body: unknown): Promise<PutOutcome> {
    checkId(id);
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw RulesError.invalidRule([{ path: '', message: 'must be a rule object' }]);
    const bodyId = (body as { id?: unknown }).id;
    if (bodyId !== undefined && bodyId !== id) throw RulesError.invalidRule([{ path: 'id', message: 'must equal the id in the path' }]);
    const reading = readRule({ ...body, id }, this.strategy, this.validators);
    if (reading.problems !== undefined) throw RulesError.invalidRule(reading.problems);
    // Written now, it can be fixed now: refused rather than stored to answer 500.
    if (reading.deferred.length > 0) throw RulesError.invalidRule(reading.deferred);
    if (this.definedByFile(id)) throw RulesError.ruleFromFile();
    const created = await this.repository.upsert(reading.rule, this.changed(id));
    await this.serially(() => this.refreshStored(id));
    return { rule: reading.rule, created };
  }

  async delete(id: string): Promise<void> {
    checkId(id);
    if (this.definedByFile(id)) throw RulesError.ruleFromFile();
    if (!(await this.repository.delete(id, this.changed(id)))) throw RulesError.ruleNotFound();
    await this.serially(() => this.refreshStored(id));
  }

  /** Announces a stored rule's change, inside its write's transaction, to every instance. */
  private changed(id: string): Announce {
    return (transaction) => this.notifier.publishWithin(transaction, RULES_TOPIC, id);
  }

  private enqueue(task: () => Promise<void>): void {
    this.serially(task).catch((error: unknown) =>
      this.logger.error({ msg: 'rules could not be reloaded; the rules in force stay', error: String(error) }),
    );
  }

  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Stored rules cannot be read while the database is down or its migrations are pending; readiness
   * already says so. The instance starts anyway and keeps trying, the files' rules in force meanwhile.
   */
  private async loadStored(): Promise<void> {
    try {
      await this.serially(() => this.reloadStored());
    } catch (error) {
      this.storedUnreadable = true;
      this.report();
      this.logger.warn({ msg: 'stored rules could not be read; trying again', error: String(error) });
      this.retryTimer = setTimeout(() => void this.loadStored(), STORED_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private async reloadStored(): Promise<void> {
    this.takeAllStored(await this.repository.all());
    this.apply();
  }

  private takeAllStored(rows: readonly StoredRule[]): void {
    this.storedUnreadable = false;
    this.stored.clear();
    this.storedProblems.clear();
    this.storedDeferred.clear();
    for (const row of rows) this.takeStored(row);
  }

  private async refreshStored(id: string): Promise<void> {
    const row = await this.repository.find(id);
    this.stored.delete(id);
    this.storedProblems.delete(id);
    this.storedDeferred.delete(id);
    if (row !== undefined) this.takeStored(row);
    this.apply();
  }

  /** A stored rule is read back like any other: it may predate a validator or a change of strategy. */
  private takeStored(row: StoredRule): void {
    const reading =
      'unreadable' in row ? { problems: [{ path: '', message: row.unreadable }] } : readRule(row.document, this.strategy, this.validators);
    if (reading.problems === undefined) {
      this.stored.set(row.id, reading.rule);
      if (reading.deferred.length > 0) {
        this.storedDeferred.set(row.id, describe(reading.deferred[0]!));
        this.logger.warn({ msg: 'stored rule answers 500 until fixed', id: row.id, problems: reading.deferred });
      }
      return;
    }
    this.storedProblems.set(row.id, describe(reading.problems[0]!));
    this.logger.warn({ msg: 'stored rule does not load; it is not in force', id: row.id, problems: reading.problems });
  }

  private async reloadFiles(): Promise<void> {
    if (!this.files.configured) return;
    this.takeFiles(await this.files.read(this.strategy, this.validators));
    this.apply();
  }

  private takeFiles(readings: readonly RuleFileReading[]): void {
    const present = new Set(readings.map((reading) => reading.path));
    for (const path of this.fileStates.keys()) if (!present.has(path)) this.fileStates.delete(path);
    for (const reading of readings) this.takeFile(reading);
  }

  private takeFile(reading: RuleFileReading): void {
    const state: FileState = this.fileStates.get(reading.path) ?? { rules: undefined, problems: [], deferred: [] };
    this.fileStates.set(reading.path, state);
    const problems = reading.problems.length > 0 ? reading.problems : this.clashes(reading);
    if (problems.length === 0) {
      if (state.problems.length > 0) this.logger.log({ msg: 'rules file loads again', file: reading.path });
      state.rules = reading.rules;
      state.problems = [];
      state.deferred = reading.deferred;
      if (reading.deferred.length > 0)
        this.logger.warn({
          msg: 'rules file loads, but some of its rules answer 500 until fixed',
          file: reading.path,
          problems: reading.deferred,
        });
      return;
    }
    state.problems = problems;
    this.logger.warn({
      msg: state.rules === undefined ? 'rules file does not load' : 'rules file does not load; its last good rules stay in force',
      file: reading.path,
      problems,
    });
  }

  /** Ids of a file that another file or a stored rule already defines. */
  private clashes(reading: RuleFileReading): RuleProblem[] {
    const owners = new Map<string, string>();
    for (const [path, state] of this.fileStates) {
      if (path !== reading.path) for (const rule of state.rules ?? []) owners.set(rule.id, path);
    }
    const problems: RuleProblem[] = [];
    reading.rules.forEach((rule, index) => {
      const other = owners.get(rule.id);
      if (other !== undefined) problems.push({ path: `${index}.id`, message: `is also defined in ${basename(other)}` });
      else if (this.stored.has(rule.id))
        problems.push({ path: `${index}.id`, message: 'is also defined by a rule stored through the API' });
    });
    return problems;
  }

  private definedByFile(id: string): boolean {
    for (const state of this.fileStates.values()) if (state.rules?.some((rule) => rule.id === id)) return true;
    return false;
  }

  /** Puts the wanted state in force: recompiles what changed, tells the listeners, updates readiness. */
  private apply(): void {
    const wanted = new Map<string, AccessRule>();
    for (const state of this.fileStates.values()) for (const rule of state.rules ?? []) if (!wanted.has(rule.id)) wanted.set(rule.id, rule);
    const shadowed: string[] = [];
    for (const [id, rule] of this.stored) {
      if (wanted.has(id)) shadowed.push(id);
      else wanted.set(id, rule);
    }
    const changed: string[] = [];
    for (const [id, rule] of wanted) {
      const fingerprint = JSON.stringify(rule);
      if (this.inForce.get(id)?.fingerprint === fingerprint) continue;
      this.index.put(rule);
      this.inForce.set(id, { rule, fingerprint });
      changed.push(id);
    }
    for (const id of this.inForce.keys()) {
      if (wanted.has(id)) continue;
      this.index.remove(id);
      this.inForce.delete(id);
      changed.push(id);
    }
    for (const id of shadowed) {
      if (!this.shadowed.includes(id)) this.logger.warn({ msg: 'stored rule has the id of a file rule; it is not in force', id });
    }
    this.shadowed = shadowed;
    this.report();
    if (changed.length > 0) this.tell(changed);
  }

  /** A listener that fails must not keep the others from hearing, nor undo the change. */
  private tell(changed: readonly string[]): void {
    for (const listener of this.listeners) {
      try {
        listener(changed);
      } catch (error) {
        this.logger.error({ msg: 'a rules change listener failed', error: String(error) });
      }
    }
  }

  private report(): void {
    const messages: string[] = [];
    if (this.storedUnreadable) messages.push('stored rules could not be read yet');
    let failing = false;
    for (const [path, state] of this.fileStates) {
      const deferred = state.deferred[0];
      if (deferred !== undefined) messages.push(`${basename(path)} at ${deferred.path}: ${deferred.message} (answers 500)`);
      const first = state.problems[0];
      if (first === undefined) continue;
      failing ||= state.rules === undefined;
      const where = first.path === '' ? basename(path) : `${basename(path)} at ${first.path}`;
      messages.push(`${where}: ${first.message}${state.rules === undefined ? '' : ' (last good rules in force)'}`);
    }
    for (const [id, problem] of this.storedProblems) messages.push(`stored rule ${JSON.stringify(id)}: ${problem}`);
    for (const [id, problem] of this.storedDeferred) messages.push(`stored rule ${JSON.stringify(id)}: ${problem} (answers 500)`);
    for (const id of this.shadowed) messages.push(`stored rule ${JSON.stringify(id)}: a rules file defines the same id`);
    this.readiness.set(READINESS_COMPONENT, messages.length === 0 ? undefined : { failing, message: messages.join('; ') });
  }
}

function describe(problem: RuleProblem): string {
  return `${problem.path === '' ? 'rule' : problem.path}: ${problem.message}`;
}

function checkId(id: string): void {
  if (id.length === 0 || id.length > MAX_RULE_ID_LENGTH)
    throw RulesError.invalidInput('id', `must be 1 to ${MAX_RULE_ID_LENGTH} characters`);
}
