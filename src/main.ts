// First: the linear-time RegExp fallback must be on before any pattern of the process is compiled.
import './common/regex/linear-regexp.js';
import { startLatchkey } from './bootstrap.js';
import { startFlagWarnings } from './common/runtime/start-flags.js';
import { ConfigError } from './config/config.error.js';

async function main(): Promise<void> {
  let running;
  try {
    running = await startLatchkey(process.env, { warnings: startFlagWarnings() });
  } catch (error) {
    const message =
      error instanceof ConfigError
        ? `Configuration error: ${error.message}`
        : `Failed to start: ${(error as Error).stack ?? String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }

  process.stdout.write(
    [
      '',
      `Latchkey ${running.config.version} is ready.`,
      `  public API: ${running.urls.public}`,
      `  admin API:  ${running.urls.admin}`,
      ...(running.urls.proxy === undefined ? [] : [`  proxy:      ${running.urls.proxy}`]),
      '',
      // Flow starts rather than page URLs: they work whichever UI (built-in or one's own) serves the pages.
      `  Sign in:    ${running.config.urls.issuer}/self-service/login/browser`,
      `  Sign up:    ${running.config.urls.issuer}/self-service/registration/browser`,
      `  Account:    ${running.config.urls.issuer}/self-service/settings/browser`,
      '  Try it with a sample app: npm run demo',
      ...(running.generatedAdminToken === undefined
        ? []
        : [
            '',
            '  Admin token (shown only this once; only its digest is stored):',
            `    ${running.generatedAdminToken}`,
            `  Try: curl -H "Authorization: Bearer <token>" ${running.urls.admin}/version`,
          ]),
      '',
    ].join('\n') + '\n',
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      process.stderr.write(`Received ${signal} again: exiting now.\n`);
      process.exit(1);
    }
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Shutdown failed: ${(error as Error).stack ?? String(error)}\n`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
}

void main();
