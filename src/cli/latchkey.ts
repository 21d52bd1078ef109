import { runCli } from './cli-program.js';

/** `npx latchkey …`: the command-line client (see cli-program.ts). */
process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
