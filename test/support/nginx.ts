import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../../src/common/net/free-port.js';

/** Debian's nginx (package nginx-light or nginx): the only gateway the tests drive. */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

/** Whether the gateway test can run here; when not, says why once for `file`. */
export function nginxAvailable(file: string): boolean {
  if (NGINX === undefined) console.warn(`${file}: skipped, nginx is not installed (apt-get install -y nginx-light)`);
  return NGINX !== undefined;
}

export interface RunningNginx {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground, one process, with everything (pid, logs, temp files) in `dir`, and
 * `http` as the body of its `http {}` block (`LISTEN` is replaced by its loopback address).
 */
export async function startNginx(dir: string, http: string): Promise<RunningNginx> {
  const port = await freePort();
  await mkdir(join(dir, 'temp'), { recursive: true });
  const config = `
daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'temp')};
  proxy_temp_path ${join(dir, 'temp')};
  fastcgi_temp_path ${join(dir, 'temp')};
  uwsgi_temp_path ${join(dir, 'temp')};
  scgi_temp_path ${join(dir, 'temp')};
  ${http.replaceAll('LISTEN', `127.0.0.1:${port}`)}
}`;
  const file = join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child: ChildProcess = spawn(NGINX!, ['-c', file, '-p', dir, '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`);
    const up = await fetch(`${url}/__nginx_probe`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('nginx did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
