import type { Command } from 'commander';
import { ExitCode } from '../cli-io.js';
import type { ActionFactory } from './action-factory.js';

/** `latchkey token introspect <token>`: what the server knows of an access or refresh token. */
export function registerToken(program: Command, action: ActionFactory): void {
  program
    .command('token')
    .description('OAuth2 tokens')
    .command('introspect <token>')
    .description('introspect a token; exit code 0 when active, 3 when not')
    .option('--scope <scopes>', 'space-separated scopes the token must hold')
    .action(
      action(async ({ api, out }, token: string, options: { scope?: string }) => {
        const { body } = await api.postForm<Record<string, unknown> & { active: boolean }>('/oauth2/introspect', {
          token,
          ...(options.scope === undefined ? {} : { scope: options.scope }),
        });
        out.result(body, () =>
          body.active
            ? Object.entries(body)
                .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
                .join('\n')
            : 'inactive',
        );
        return body.active ? ExitCode.OK : ExitCode.NEGATIVE;
      }),
    );
}
