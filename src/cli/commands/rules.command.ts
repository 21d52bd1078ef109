import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { validateRulesDocument, type AccessRule, type RulesDocumentFormat } from '../../rules/index.js';
import { ExitCode } from '../cli-io.js';
import { CliUsageError } from '../cli-usage.error.js';
import type { ActionFactory } from './action-factory.js';

interface RulesOptions {
  format?: string;
  strategy?: string;
}

/** `latchkey rules validate|import`: access-rule files (JSON or YAML arrays, as RULES_FILES reads them). */
export function registerRules(program: Command, action: ActionFactory): void {
  const rules = program.command('rules').description('validate and import access rules (JSON or YAML arrays)');
  const options = (command: Command): Command =>
    command
      .option('--format <format>', 'json or yaml (default: from the file name, else from its first character)')
      .option('--strategy <strategy>', 'regexp or glob: how match.url is read (RULES_MATCHING_STRATEGY)', 'regexp');

  options(
    rules
      .command('validate <files...>')
      .description(
        "check rule files here, without a server: shape, ids, methods, URLs and patterns; handlers' configs are checked by the server on import",
      ),
  ).action(
    action(async ({ out }, files: string[], flags: RulesOptions) => {
      const readings = await Promise.all(files.map((file) => readRules(file, flags)));
      const problems = readings.flatMap((reading) => reading.problems);
      const count = readings.reduce((total, reading) => total + reading.rules.length, 0);
      out.result({ valid: problems.length === 0, rules: count, problems }, () =>
        problems.length === 0
          ? `${count} rules, all valid`
          : problems.map((problem) => `${problem.file}: ${problem.path || '(document)'}: ${problem.message}`).join('\n'),
      );
      return problems.length === 0 ? ExitCode.OK : ExitCode.FAILED;
    }),
  );

  options(
    rules
      .command('import <files...>')
      .description('store every rule of the files through the admin API (PUT /rules/{id}); nothing is sent unless every file is valid'),
  ).action(
    action(async ({ api, out }, files: string[], flags: RulesOptions) => {
      const readings = await Promise.all(files.map((file) => readRules(file, flags)));
      const problems = readings.flatMap((reading) => reading.problems);
      if (problems.length > 0) {
        for (const problem of problems) out.progress(`${problem.file}: ${problem.path || '(document)'}: ${problem.message}`);
        throw new CliUsageError(`${problems.length} problem(s): nothing imported`);
      }
      let created = 0;
      let replaced = 0;
      for (const rule of readings.flatMap((reading) => reading.rules)) {
        const { status } = await api.put(`/rules/${encodeURIComponent(rule.id)}`, rule);
        if (status === 201) created += 1;
        else replaced += 1;
      }
      out.result({ created, replaced }, () => `imported ${created + replaced} rules (${created} new, ${replaced} replaced)`);
      return ExitCode.OK;
    }),
  );
}

interface FileReading {
  readonly rules: readonly AccessRule[];
  readonly problems: { file: string; path: string; message: string }[];
}

async function readRules(file: string, flags: RulesOptions): Promise<FileReading> {
  if (flags.strategy !== 'regexp' && flags.strategy !== 'glob') throw new CliUsageError('--strategy must be regexp or glob');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const reading = validateRulesDocument(text, formatOf(file, text, flags.format), { strategy: flags.strategy });
  return { rules: reading.rules, problems: reading.problems.map((problem) => ({ file, ...problem })) };
}

function formatOf(file: string, text: string, given: string | undefined): RulesDocumentFormat {
  if (given !== undefined) {
    if (given !== 'json' && given !== 'yaml') throw new CliUsageError('--format must be json or yaml');
    return given;
  }
  const extension = extname(file).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.yaml' || extension === '.yml') return 'yaml';
  return text.trimStart().startsWith('[') ? 'json' : 'yaml';
}
