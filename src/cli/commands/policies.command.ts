import { createWriteStream } from 'node:fs';
import type { Command } from 'commander';
import { ExitCode } from '../cli-io.js';
import { CliUsageError } from '../cli-usage.error.js';
import { inputStream, jsonDocumentItems } from '../json-input.js';
import type { ActionFactory } from './action-factory.js';

/** Policies per list call when exporting. */
const PAGE = 500;

/** `latchkey policies import|export <flavor>`: ACP policies as a JSON array, as Keto's CLI files are. */
export function registerPolicies(program: Command, action: ActionFactory): void {
  const policies = program.command('policies').description('import and export ACP policies (flavor: exact, glob or regex)');
  const base = (flavor: string): string => `/engines/acp/service/${encodeURIComponent(flavor)}/policies`;

  policies
    .command('import <flavor> [file]')
    .description('create or replace every policy of a JSON array (or JSON lines), from a file or stdin')
    .action(
      action(async ({ api, out, io }, flavor: string, file: string | undefined) => {
        const items = await jsonDocumentItems(inputStream(file, io.stdin));
        for (const [index, item] of items.entries()) {
          if (typeof item !== 'object' || item === null || Array.isArray(item))
            throw new CliUsageError(`policy ${index + 1} is not a JSON object`);
        }
        for (const item of items) await api.put(base(flavor), item);
        out.result({ imported: items.length }, () => `imported ${items.length} policies into ${flavor}`);
        return ExitCode.OK;
      }),
    );

  policies
    .command('export <flavor>')
    .description('write every policy of a flavor as a JSON array, to stdout or a file')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(
      action(async ({ api, out, io }, flavor: string, options: { output?: string }) => {
        const all: unknown[] = [];
        for (let offset = 0; ; offset += PAGE) {
          const { body } = await api.get<unknown[]>(base(flavor), { limit: PAGE, offset });
          all.push(...body);
          if (body.length < PAGE) break;
        }
        const text = `${JSON.stringify(all, null, 2)}\n`;
        if (options.output === undefined) io.stdout.write(text);
        else
          await new Promise<void>((resolve, reject) =>
            createWriteStream(options.output!)
              .end(text, () => resolve())
              .once('error', reject),
          );
        out.progress(`exported ${all.length} policies`);
        return ExitCode.OK;
      }),
    );
}
