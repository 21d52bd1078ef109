import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { AdminApiError } from '../admin-api.client.js';
import { ExitCode } from '../cli-io.js';
import { CliUsageError } from '../cli-usage.error.js';
import { inputStream, jsonLines } from '../json-input.js';
import type { ActionFactory } from './action-factory.js';

type Identity = Record<string, unknown> & { id: string };

/** How often progress is reported on stderr, in identities. */
const PROGRESS_EVERY = 100;

/** `latchkey identities import|export`: JSON lines, password hashes included, streamed. */
export function registerIdentities(program: Command, action: ActionFactory): void {
  const identities = program.command('identities').description('import and export identities as JSON lines');

  identities
    .command('export')
    .description('write every identity as one JSON line, with its password hash, to stdout or a file')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--per-page <n>', 'identities per admin API call', '250')
    .action(
      action(async ({ api, out, io }, options: { output?: string; perPage: string }) => {
        const perPage = positive(options.perPage, '--per-page');
        const sink: Writable = options.output === undefined ? io.stdout : createWriteStream(options.output);
        let exported = 0;
        for (let page = 0; ; page += 1) {
          const { body } = await api.get<Identity[]>('/identities', { page, per_page: perPage, include_credential: 'password' });
          for (const identity of body) {
            if (!sink.write(`${JSON.stringify(identity)}\n`)) await new Promise((resolve) => sink.once('drain', resolve));
            exported += 1;
            if (exported % PROGRESS_EVERY === 0) out.progress(`exported ${exported}`);
          }
          if (body.length < perPage) break;
        }
        if (sink !== io.stdout)
          await new Promise<void>((resolve, reject) => sink.end((error?: Error | null) => (error ? reject(error) : resolve())));
        out.progress(`exported ${exported} identities`);
        return ExitCode.OK;
      }),
    );

  identities
    .command('import [file]')
    .description('create one identity per JSON line (an export line or a create body), from a file or stdin')
    .action(
      action(async ({ api, out, io }, file: string | undefined) => {
        let imported = 0;
        let failed = 0;
        for await (const { line, value } of jsonLines(inputStream(file, io.stdin))) {
          try {
            const { body } = await api.post<Identity>('/identities', createBody(value, line));
            imported += 1;
            if (out.json) out.line({ line, id: body.id });
          } catch (error) {
            if (!(error instanceof AdminApiError) && !(error instanceof CliUsageError)) throw error;
            failed += 1;
            out.progress(`line ${line}: ${error instanceof AdminApiError ? `${error.status} ${error.code}: ` : ''}${error.message}`);
          }
          if ((imported + failed) % PROGRESS_EVERY === 0) out.progress(`imported ${imported}, failed ${failed}`);
        }
        out.progress(`imported ${imported} identities${failed === 0 ? '' : `, ${failed} failed`}`);
        return failed === 0 ? ExitCode.OK : ExitCode.FAILED;
      }),
    );
}

/**
 * The create body for one input line: schema, traits, state and the password hash, whatever else an export
 * line carries (ids, addresses and timestamps are the importing instance's to assign).
 */
function createBody(value: unknown, line: number): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliUsageError(`line ${line} is not a JSON object`);
  const record = value as Record<string, unknown>;
  const body: Record<string, unknown> = { traits: record['traits'] ?? {} };
  if (typeof record['schema_id'] === 'string') body['schema_id'] = record['schema_id'];
  if (typeof record['state'] === 'string') body['state'] = record['state'];
  const password = (record['credentials'] as { password?: { config?: Record<string, unknown> } } | undefined)?.password?.config;
  if (typeof password?.['hashed_password'] === 'string')
    body['credentials'] = { password: { config: { hashed_password: password['hashed_password'] } } };
  else if (typeof password?.['password'] === 'string') body['credentials'] = { password: { config: { password: password['password'] } } };
  return body;
}

function positive(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new CliUsageError(`${name} must be a whole number above 0`);
  return value;
}
