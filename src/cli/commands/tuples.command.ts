import type { Command } from 'commander';
import { AdminApiError } from '../admin-api.client.js';
import { ExitCode } from '../cli-io.js';
import { CliUsageError } from '../cli-usage.error.js';
import { inputStream, jsonLines } from '../json-input.js';
import type { ActionFactory } from './action-factory.js';

interface Tuple {
  namespace: string;
  object: string;
  relation: string;
  subject: string;
}

interface ExpandTree {
  type: string;
  subject: string;
  children?: ExpandTree[];
}

/** Tuples per PATCH when importing: one transaction each on the server. */
const IMPORT_BATCH = 100;

/**
 * `namespace:object#relation@subject`, the notation Keto's docs use; the subject is an id or a subject
 * set `namespace:object#relation`. The last `@` splits, since an object may not hold one but a subject may.
 */
export function parseTuple(text: string): Tuple {
  const match = /^([^:#@]+):([^#@]+)#([^@]+)@(.+)$/.exec(text);
  if (match === null) throw new CliUsageError(`"${text}" is not namespace:object#relation@subject`);
  return { namespace: match[1]!, object: match[2]!, relation: match[3]!, subject: match[4]! };
}

function parseSubjectSet(text: string): Omit<Tuple, 'subject'> {
  const match = /^([^:#@]+):([^#@]+)#([^@]+)$/.exec(text);
  if (match === null) throw new CliUsageError(`"${text}" is not namespace:object#relation`);
  return { namespace: match[1]!, object: match[2]!, relation: match[3]! };
}

const show = (tuple: Tuple): string => `${tuple.namespace}:${tuple.object}#${tuple.relation}@${tuple.subject}`;

/** `latchkey tuples write|delete|check|expand|import`: relation tuples. */
export function registerTuples(program: Command, action: ActionFactory): void {
  const tuples = program.command('tuples').description('write, delete, check and expand relation tuples');

  tuples
    .command('write <tuples...>')
    .description('write tuples given as namespace:object#relation@subject (all or none)')
    .action(
      action(async ({ api, out }, texts: string[]) => {
        const parsed = texts.map(parseTuple);
        await api.patch(
          '/relation-tuples',
          parsed.map((relation_tuple) => ({ action: 'insert', relation_tuple })),
        );
        out.result({ written: parsed }, () => parsed.map((tuple) => `wrote ${show(tuple)}`).join('\n'));
        return ExitCode.OK;
      }),
    );

  tuples
    .command('delete <tuples...>')
    .description('delete tuples given as namespace:object#relation@subject (all or none)')
    .action(
      action(async ({ api, out }, texts: string[]) => {
        const parsed = texts.map(parseTuple);
        await api.patch(
          '/relation-tuples',
          parsed.map((relation_tuple) => ({ action: 'delete', relation_tuple })),
        );
        out.result({ deleted: parsed }, () => parsed.map((tuple) => `deleted ${show(tuple)}`).join('\n'));
        return ExitCode.OK;
      }),
    );

  tuples
    .command('check <tuple>')
    .description('is namespace:object#relation@subject allowed? exit code 0 if so, 3 if not')
    .option('--max-depth <n>', 'how deep subject sets are followed')
    .action(
      action(async ({ api, out }, text: string, options: { maxDepth?: string }) => {
        const body = await api.post<{ allowed: boolean }>('/check', parseTuple(text), { 'max-depth': options.maxDepth }).then(
          (response) => response.body,
          (error: unknown) => {
            // A denied check is a 403 whose body is still the answer, as in Keto.
            if (error instanceof AdminApiError && error.status === 403) return { allowed: false };
            throw error;
          },
        );
        out.result(body, () => (body.allowed ? 'allowed' : 'denied'));
        return body.allowed ? ExitCode.OK : ExitCode.NEGATIVE;
      }),
    );

  tuples
    .command('expand <subjectSet>')
    .description('the tree of subjects of namespace:object#relation')
    .option('--max-depth <n>', 'how deep to expand')
    .action(
      action(async ({ api, out }, text: string, options: { maxDepth?: string }) => {
        const { body } = await api.get<ExpandTree>('/expand', { ...parseSubjectSet(text), 'max-depth': options.maxDepth });
        out.result(body, () => renderTree(body, 0));
        return ExitCode.OK;
      }),
    );

  tuples
    .command('import [file]')
    .description('write tuples from JSON lines ({namespace, object, relation, subject} each), in batches')
    .action(
      action(async ({ api, out, io }, file: string | undefined) => {
        let batch: Tuple[] = [];
        let written = 0;
        const flush = async (): Promise<void> => {
          if (batch.length === 0) return;
          await api.patch(
            '/relation-tuples',
            batch.map((relation_tuple) => ({ action: 'insert', relation_tuple })),
          );
          written += batch.length;
          batch = [];
          out.progress(`imported ${written}`);
        };
        for await (const { line, value } of jsonLines(inputStream(file, io.stdin))) {
          batch.push(tupleOf(value, line));
          if (batch.length === IMPORT_BATCH) await flush();
        }
        await flush();
        out.result({ imported: written }, () => `imported ${written} tuples`);
        return ExitCode.OK;
      }),
    );
}

function tupleOf(value: unknown, line: number): Tuple {
  if (typeof value === 'string') return parseTuple(value);
  const record = value as Partial<Record<keyof Tuple, unknown>> | null;
  const fields = ['namespace', 'object', 'relation', 'subject'] as const;
  if (typeof record !== 'object' || record === null || fields.some((field) => typeof record[field] !== 'string')) {
    throw new CliUsageError(`line ${line} is not a tuple {namespace, object, relation, subject}`);
  }
  return {
    namespace: record.namespace as string,
    object: record.object as string,
    relation: record.relation as string,
    subject: record.subject as string,
  };
}

function renderTree(tree: ExpandTree, depth: number): string {
  const line = `${'  '.repeat(depth)}${tree.type === 'leaf' ? '' : `${tree.type} `}${tree.subject}`;
  return [line, ...(tree.children ?? []).map((child) => renderTree(child, depth + 1))].join('\n');
}
