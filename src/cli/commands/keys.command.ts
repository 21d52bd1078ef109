import type { Command } from 'commander';
import { ExitCode, table } from '../cli-io.js';
import { PRIVATE_JWK_MEMBERS } from '../../keys/index.js';
import type { ActionFactory } from './action-factory.js';

type Jwk = Record<string, unknown> & { kid: string; kty: string; alg?: string; use?: string };

/** Members that hold private key material; `keys list` leaves them out unless asked. */
const PRIVATE_MEMBERS: readonly string[] = PRIVATE_JWK_MEMBERS;

/** `latchkey keys create|rotate|list`: JSON Web Key sets. */
export function registerKeys(program: Command, action: ActionFactory): void {
  const keys = program.command('keys').description('manage JSON Web Key sets');

  keys
    .command('create <set>')
    .description('generate a key in a set (the set is created if absent); the new key becomes the signing key')
    .requiredOption('--alg <alg>', 'RS256, RS512, PS256, ES256, ES384, ES512, EdDSA, HS256 or HS512')
    .option('--kid <kid>', 'key id (random when absent)')
    .option('--use <use>', 'sig or enc', 'sig')
    .action(
      action(async ({ api, out }, set: string, options: { alg: string; kid?: string; use: string }) => {
        const { body } = await api.post<{ keys: Jwk[] }>(`/keys/${encodeURIComponent(set)}`, {
          alg: options.alg,
          use: options.use,
          ...(options.kid === undefined ? {} : { kid: options.kid }),
        });
        const key = body.keys[0]!;
        out.result(publicSet(body.keys), () => `created ${key.kid} (${key.alg ?? key.kty}) in ${set}`);
        return ExitCode.OK;
      }),
    );

  keys
    .command('rotate <set>')
    .description('add a new key of the same algorithm as the newest one; it signs from now on, older keys still verify')
    .option('--alg <alg>', 'algorithm of the new key (default: that of the newest key)')
    .action(
      action(async ({ api, out }, set: string, options: { alg?: string }) => {
        const path = `/keys/${encodeURIComponent(set)}`;
        const alg = options.alg ?? (await api.get<{ keys: Jwk[] }>(path)).body.keys[0]?.alg;
        const { body } = await api.post<{ keys: Jwk[] }>(path, { alg, use: 'sig' });
        const key = body.keys[0]!;
        out.result(publicSet(body.keys), () => `rotated ${set}: ${key.kid} (${key.alg ?? key.kty}) now signs`);
        return ExitCode.OK;
      }),
    );

  keys
    .command('list <set>')
    .description('list the keys of a set, newest first (public members only unless --include-private)')
    .option('--include-private', 'print private key material too (JSON output)')
    .action(
      action(async ({ api, out }, set: string, options: { includePrivate?: boolean }) => {
        const { body } = await api.get<{ keys: Jwk[] }>(`/keys/${encodeURIComponent(set)}`);
        const shown = options.includePrivate === true ? body : publicSet(body.keys);
        out.result(shown, () =>
          table(
            ['KID', 'ALG', 'USE', 'PRIVATE'],
            body.keys.map((key) => [key.kid, key.alg ?? '', key.use ?? '', PRIVATE_MEMBERS.some((member) => member in key) ? 'yes' : 'no']),
          ),
        );
        return ExitCode.OK;
      }),
    );
}

function publicSet(keys: readonly Jwk[]): { keys: Jwk[] } {
  return {
    keys: keys.map((key) => Object.fromEntries(Object.entries(key).filter(([member]) => !PRIVATE_MEMBERS.includes(member))) as Jwk),
  };
}
