import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { ExitCode, table } from '../cli-io.js';
import { CliUsageError } from '../cli-usage.error.js';
import type { ActionFactory } from './action-factory.js';

type Client = Record<string, unknown> & { client_id: string; client_name?: string; client_secret?: string };

/** Members a client read carries that a client write refuses: the server sets them. */
const READ_ONLY_MEMBERS = ['created_at', 'updated_at', 'client_secret_expires_at', 'registration_access_token', 'registration_client_uri'];

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `latchkey clients create|list|get|delete|rotate-secret`: the OAuth2 client registry. */
export function registerClients(program: Command, action: ActionFactory): void {
  const clients = program.command('clients').description('manage OAuth2 clients');

  clients
    .command('create')
    .description('register a client; its secret is printed once')
    .option('--name <name>', 'client_name')
    .option('--id <id>', 'client_id (generated when absent)')
    .option('--grant-type <type>', 'a grant type (repeatable)', collect)
    .option('--response-type <type>', 'a response type (repeatable)', collect)
    .option('--redirect-uri <uri>', 'a redirect URI (repeatable)', collect)
    .option('--scope <scopes>', 'space-separated scopes')
    .option('--audience <audience>', 'an allowed audience (repeatable)', collect)
    .option('--token-endpoint-auth-method <method>', 'client_secret_basic, client_secret_post, private_key_jwt or none')
    .option('--secret <secret>', 'the client secret (generated when absent)')
    .option('--metadata <json>', 'client metadata as a JSON object')
    .action(
      action(async ({ api, out }, options: Record<string, unknown>) => {
        const body: Record<string, unknown> = {};
        const copy: readonly [string, string][] = [
          ['name', 'client_name'],
          ['id', 'client_id'],
          ['grantType', 'grant_types'],
          ['responseType', 'response_types'],
          ['redirectUri', 'redirect_uris'],
          ['scope', 'scope'],
          ['audience', 'audience'],
          ['tokenEndpointAuthMethod', 'token_endpoint_auth_method'],
          ['secret', 'client_secret'],
        ];
        for (const [option, member] of copy) if (options[option] !== undefined) body[member] = options[option];
        if (typeof options['metadata'] === 'string') body['metadata'] = jsonObject(options['metadata'], '--metadata');
        const { body: client } = await api.post<Client>('/clients', body);
        out.result(client, () =>
          [
            `client_id: ${client.client_id}`,
            ...(client.client_secret === undefined ? [] : [`client_secret: ${client.client_secret}`]),
          ].join('\n'),
        );
        return ExitCode.OK;
      }),
    );

  clients
    .command('list')
    .description('list clients')
    .option('--limit <n>', 'page size', '100')
    .option('--offset <n>', 'first item', '0')
    .action(
      action(async ({ api, out }, options: { limit: string; offset: string }) => {
        const { body: list } = await api.get<Client[]>('/clients', { limit: options.limit, offset: options.offset });
        out.result(list, () =>
          table(
            ['CLIENT ID', 'NAME', 'GRANT TYPES'],
            list.map((client) => [
              client.client_id,
              client.client_name ?? '',
              ((client['grant_types'] as string[] | undefined) ?? []).join(','),
            ]),
          ),
        );
        return ExitCode.OK;
      }),
    );

  clients
    .command('get <id>')
    .description('show a client')
    .action(
      action(async ({ api, out }, id: string) => {
        const { body: client } = await api.get<Client>(`/clients/${encodeURIComponent(id)}`);
        out.result(client, () => JSON.stringify(client, null, 2));
        return ExitCode.OK;
      }),
    );

  clients
    .command('delete <id>')
    .description('delete a client (its tokens stop working)')
    .action(
      action(async ({ api, out }, id: string) => {
        await api.delete(`/clients/${encodeURIComponent(id)}`);
        out.result({ deleted: id }, () => `deleted ${id}`);
        return ExitCode.OK;
      }),
    );

  clients
    .command('rotate-secret <id>')
    .description('give a client a new random secret, printed once; the old one stops working')
    .action(
      action(async ({ api, out }, id: string) => {
        const path = `/clients/${encodeURIComponent(id)}`;
        const { body: current } = await api.get<Client>(path);
        if (current['token_endpoint_auth_method'] === 'none') throw new CliUsageError(`${id} is a public client: it has no secret`);
        const next: Record<string, unknown> = { ...current, client_secret: randomBytes(32).toString('base64url') };
        for (const member of READ_ONLY_MEMBERS) delete next[member];
        const { body: updated } = await api.put<Client>(path, next);
        out.result({ client_id: updated.client_id, client_secret: updated.client_secret }, () =>
          [`client_id: ${updated.client_id}`, `client_secret: ${updated.client_secret ?? ''}`].join('\n'),
        );
        return ExitCode.OK;
      }),
    );
}

export function jsonObject(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliUsageError(`${name} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliUsageError(`${name} must be a JSON object`);
  return value as Record<string, unknown>;
}
