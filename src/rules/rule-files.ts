import { watch, type FSWatcher } from 'chokidar';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccessRule, MatchingStrategy, RuleProblem, RuleValidator } from './access-rule.js';
import { rulesFormatOf, validateRulesDocument } from './rules-document.js';

/** One rules file as read now: its rules, or why it cannot be loaded. */
export interface RuleFileReading {
  readonly path: string;
  readonly rules: readonly AccessRule[];
  readonly problems: readonly RuleProblem[];
  /** Problems that leave the rules in force, answering 500 (see RuleProblem). */
  readonly deferred: readonly RuleProblem[];
}

/** A rules file larger than this is refused rather than parsed. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Editors and config-map updates write in bursts; one reload follows the burst. */
const SETTLE_MS = 150;

/**
 * The rule files named by RULES_FILES: each entry is a JSON or YAML file, or a directory walked
 * recursively for `.json`, `.yaml` and `.yml` files. Hidden entries are skipped (Kubernetes keeps the
 * previous version of a mounted config map in `..<timestamp>` folders beside the current one), and
 * symbolic links to files are followed but not links to directories (no cycles).
 */
export class RuleFiles {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly entries: readonly string[]) {}

  get configured(): boolean {
    return this.entries.length > 0;
  }

  /** Every file, read and checked now, in a stable order (entries as configured, files by path). */
  async read(strategy: MatchingStrategy, validators: readonly RuleValidator[]): Promise<RuleFileReading[]> {
    const readings: RuleFileReading[] = [];
    for (const entry of this.entries) {
      let paths: string[];
      try {
        paths = (await stat(entry)).isDirectory() ? await listRuleFiles(entry) : [entry];
      } catch (error) {
        readings.push({ path: entry, rules: [], problems: [{ path: '', message: fileProblem(error) }], deferred: [] });
        continue;
      }
      for (const path of paths) readings.push(await readRuleFile(path, strategy, validators));
    }
    return readings;
  }

  /** Calls `changed` once after each burst of changes under any entry (created, written, renamed, removed). */
  watch(changed: () => void): void {
    if (this.entries.length === 0) return;
    this.watcher = watch([...this.entries], { ignoreInitial: true });
    this.watcher.on('all', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(changed, SETTLE_MS);
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher?.close();
  }
}

async function readRuleFile(path: string, strategy: MatchingStrategy, validators: readonly RuleValidator[]): Promise<RuleFileReading> {
  let text: string;
  try {
    if ((await stat(path)).size > MAX_FILE_BYTES) {
      return { path, rules: [], problems: [{ path: '', message: `larger than ${MAX_FILE_BYTES} bytes` }], deferred: [] };
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { path, rules: [], problems: [{ path: '', message: fileProblem(error) }], deferred: [] };
  }
  const { rules, problems, deferred } = validateRulesDocument(text, rulesFormatOf(path) ?? 'yaml', { strategy, validators });
  return { path, rules, problems, deferred };
}

async function listRuleFiles(directory: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(directory, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      found.push(...(await listRuleFiles(path)));
    } else if (rulesFormatOf(entry.name) !== undefined && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(path))))) {
      found.push(path);
    }
  }
  return found;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function fileProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permissions)';
  if (code === 'EISDIR') return 'is a directory';
  return 'cannot be read';
}
