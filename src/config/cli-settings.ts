/** Where the command-line client finds the admin API, and the credential it sends there. */
export interface CliSettings {
  /** Base URL of the admin listener (`LATCHKEY_ADMIN_URL`). */
  readonly adminUrl: string;
  /** An admin token or an access token granted the admin scope (`LATCHKEY_ADMIN_TOKEN`); may be absent. */
  readonly adminToken: string | undefined;
}

export const DEFAULT_CLI_ADMIN_URL = 'http://127.0.0.1:4445';

/**
 * The CLI's own settings from an environment. They are not service settings: the CLI is a client of
 * a running instance, so it reads only where that instance is and how to authenticate to it.
 */
export function cliSettings(env: Readonly<Record<string, string | undefined>>): CliSettings {
  const url = env['LATCHKEY_ADMIN_URL'];
  const token = env['LATCHKEY_ADMIN_TOKEN'];
  return {
    adminUrl: url === undefined || url === '' ? DEFAULT_CLI_ADMIN_URL : url,
    adminToken: token === undefined || token === '' ? undefined : token,
  };
}
