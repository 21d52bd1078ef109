import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/config.error.js';
import { packageVersion } from '../config/version.js';
import { AdminApiError, AdminUnreachableError } from './admin-api.client.js';
import { action, type CliAction } from './cli-context.js';
import { ExitCode, type CliIo } from './cli-io.js';
import { CliUsageError } from './cli-usage.error.js';
import { registerClients } from './commands/clients.command.js';
import { registerHealth } from './commands/health.command.js';
import { registerIdentities } from './commands/identities.command.js';
import { registerKeys } from './commands/keys.command.js';
import { registerMigrate } from './commands/migrate.command.js';
import { registerPolicies } from './commands/policies.command.js';
import { registerRules } from './commands/rules.command.js';
import { registerToken } from './commands/token.command.js';
import { registerTuples } from './commands/tuples.command.js';

/**
 * Runs `latchkey <args>` and resolves with the exit code: 0 success, 1 a failed call or an unreachable
 * server, 2 a usage error, 3 a clean "no" (see ExitCode). Never exits the process itself, so tests
 * run it in process against a real instance.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<ExitCode> {
  let code: ExitCode = ExitCode.OK;
  const program = new Command('latchkey')
    .description('Command-line client of a Latchkey instance: talks to its admin API.')
    .version(packageVersion(), '-V, --version')
    .option('--endpoint <url>', 'admin API base URL (default: LATCHKEY_ADMIN_URL, else http://127.0.0.1:4445)')
    .option('--token <token>', 'admin credential (default: LATCHKEY_ADMIN_TOKEN)')
    .option('--json', 'print results as JSON')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  const factory = <A extends unknown[]>(run: CliAction<A>): ((...args: unknown[]) => Promise<void>) =>
    action(io, (exit) => (code = exit), run);
  registerClients(program, factory);
  registerKeys(program, factory);
  registerIdentities(program, factory);
  registerTuples(program, factory);
  registerPolicies(program, factory);
  registerRules(program, factory);
  registerToken(program, factory);
  registerHealth(program, factory);
  registerMigrate(program, factory);

  try {
    await program.parseAsync([...args], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with exit code 0 and nothing more to say.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    return reportFailure(error, io);
  }
}

function reportFailure(error: unknown, io: CliIo): ExitCode {
  if (error instanceof AdminApiError) {
    io.stderr.write(`error: ${error.status} ${error.code}: ${error.message}\n`);
    if (error.status === 401) io.stderr.write('(set LATCHKEY_ADMIN_TOKEN or pass --token)\n');
    return ExitCode.FAILED;
  }
  if (error instanceof AdminUnreachableError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.FAILED;
  }
  if (error instanceof CliUsageError || error instanceof ConfigError) {
    io.stderr.write(`error: ${error.message}\n`);
    return ExitCode.USAGE;
  }
  io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return ExitCode.FAILED;
}
