import type { Command } from 'commander';
import { cliSettings } from '../config/cli-settings.js';
import { AdminApiClient } from './admin-api.client.js';
import { CliOutput, type CliIo, type ExitCode } from './cli-io.js';

/** What every command's action gets: the admin API client, the output and the io. */
export interface CliContext {
  readonly api: AdminApiClient;
  readonly out: CliOutput;
  readonly io: CliIo;
}

interface GlobalOptions {
  endpoint?: string;
  token?: string;
  json?: boolean;
}

/** A command's action: returns its exit code; errors are turned into messages and codes by `runCli`. */
export type CliAction<A extends unknown[]> = (context: CliContext, ...args: A) => Promise<ExitCode>;

/**
 * Wraps an action so that commander hands it the context built from the global options (flags win
 * over LATCHKEY_ADMIN_URL / LATCHKEY_ADMIN_TOKEN) and its exit code reaches `runCli`.
 */
export function action<A extends unknown[]>(
  io: CliIo,
  exit: (code: ExitCode) => void,
  run: CliAction<A>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const globals = command.optsWithGlobals<GlobalOptions>();
    const settings = cliSettings(io.env);
    const context: CliContext = {
      api: new AdminApiClient(globals.endpoint ?? settings.adminUrl, globals.token ?? settings.adminToken),
      out: new CliOutput(io, globals.json === true),
      io,
    };
    exit(await run(context, ...(args.slice(0, -1) as A)));
  };
}
