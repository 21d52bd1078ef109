import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Makes a P-256 key and a one-day self-signed certificate in `dir` with the `openssl` command-line
 * tool (no npm package needed). Returns the paths of the PEM files.
 */
export function selfSignedEcCertificate(
  dir: string,
  subject: string,
  extensions: readonly string[] = [],
): { keyFile: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      subject,
      ...extensions.flatMap((extension) => ['-addext', extension]),
    ],
    { stdio: 'ignore', input: '', timeout: 10_000 },
  );
  return { keyFile, certFile };
}
