// Starts one of the benchmarks' own servers (bare Fastify, a peer, a floor stage) as a child process,
// natively or under callgrind (bench/instructions.mjs), and tells where it listens.
import { spawn } from 'node:child_process';
import { callgrindCommand } from './instructions.mjs';

/**
 * Starts `node [nodeArgs] <script> 0` with `env` over the caller's environment (NODE_ENV=production,
 * PEER_PORT=0); with `counted`, under callgrind. `ready` resolves with the base URL once the server
 * prints where it listens (bare Fastify's `{"url":...}`, a peer's `READY <port>`), and rejects when it
 * exits first or stays silent for `timeoutMs` (a missing dist/, a hung import must not hold a run).
 */
export function startServer(script, env, { nodeArgs = [], counted = false, timeoutMs = 30_000 } = {}) {
  const childEnv = { ...process.env, NODE_ENV: 'production', PEER_PORT: '0', ...env };
  const command = counted ? callgrindCommand([...nodeArgs, script, '0']) : { file: process.execPath, args: [...nodeArgs, script, '0'] };
  const child = spawn(command.file, command.args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${timeoutMs / 1000} s: ${out.slice(-400)}`)),
      timeoutMs,
    );
    timer.unref();
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out.slice(-400)}`)));
    child.stderr.on('data', (data) => (out += String(data)));
    child.stdout.on('data', (data) => {
      out += String(data);
      const url = /\{"url":"([^"]+)"\}/.exec(out)?.[1];
      const port = /READY (\d+)/.exec(out)?.[1];
      if (url !== undefined) resolve(url);
      else if (port !== undefined) resolve(`http://127.0.0.1:${port}`);
    });
  });
  return { child, env: childEnv, ready };
}
