import type { Command } from 'commander';
import { AdminApiError } from '../admin-api.client.js';
import { ExitCode } from '../cli-io.js';
import type { ActionFactory } from './action-factory.js';

/**
 * `latchkey health`: is the instance ready (database reachable, no pending migrations)? Readiness
 * needs no credential; the version is added when the credential is accepted.
 */
export function registerHealth(program: Command, action: ActionFactory): void {
  program
    .command('health')
    .description('whether the instance is ready; exit code 0 when ready, 3 when not, 1 when unreachable')
    .action(
      action(async ({ api, out }) => {
        try {
          await api.get('/health/ready');
        } catch (error) {
          if (!(error instanceof AdminApiError) || error.status !== 503) throw error;
          out.result({ ready: false }, () => 'not ready');
          return ExitCode.NEGATIVE;
        }
        const version = await api.get<{ version: string }>('/version').then(
          ({ body }) => body.version,
          () => undefined,
        );
        out.result(
          { ready: true, ...(version === undefined ? {} : { version }) },
          () => `ready${version === undefined ? '' : ` (version ${version})`}`,
        );
        return ExitCode.OK;
      }),
    );
}
