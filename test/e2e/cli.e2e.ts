import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli-program.js';
import { ExitCode } from '../../src/cli/cli-io.js';
import { bootApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.js';
import { ensureBuilt } from '../support/process.js';

/** The `latchkey` command-line client against a running instance, over real HTTP. */

const NAMESPACES = JSON.stringify([
  { name: 'files', id: 1 },
  { name: 'groups', id: 2 },
]);

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface ExportedIdentity {
  traits: { email: string };
  credentials?: { password: { identifiers: string[]; config: { hashed_password?: string } } };
}

let app: TestApp;
let dir: string;

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

async function cli(args: string[], options: { stdin?: string; token?: string | null } = {}): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const env: Record<string, string> = { LATCHKEY_ADMIN_URL: app.running.urls.admin! };
  if (options.token !== null) env['LATCHKEY_ADMIN_TOKEN'] = options.token ?? TEST_ADMIN_TOKEN;
  const code = await runCli(args, { stdin: Readable.from([options.stdin ?? '']), stdout, stderr, env });
  return { code, stdout: out(), stderr: err() };
}

function basic(id: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}

function json<T>(run: Run): T {
  expect(run.code, run.stderr).toBe(ExitCode.OK);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  app = await bootApp({ NAMESPACES });
  dir = await mkdtemp(join(tmpdir(), 'latchkey-cli-'));
});

afterAll(async () => {
  await app?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('global behaviour', () => {
  it('prints help for the program and every command, with exit code 0', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(ExitCode.OK);
    for (const command of ['clients', 'keys', 'identities', 'tuples', 'policies', 'token', 'health', 'migrate']) {
      expect(top.stdout).toContain(command);
    }
    for (const command of [
      ['clients', 'create'],
      ['keys', 'rotate'],
      ['identities', 'import'],
      ['tuples', 'check'],
      ['token', 'introspect'],
    ]) {
      const help = await cli([...command, '--help']);
      expect(help.code).toBe(ExitCode.OK);
      expect(help.stdout).toContain('Usage:');
    }
  });

  it('answers unknown commands, unknown options and missing arguments with exit code 2', async () => {
    expect((await cli(['frobnicate'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['clients', 'list', '--bogus'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['clients', 'get'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['keys', 'create', 'some-set'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['tuples', 'write', 'not-a-tuple'])).code).toBe(ExitCode.USAGE);
  });

  it('reports a refused credential and an unreachable server with exit code 1', async () => {
    const refused = await cli(['clients', 'list'], { token: null });
    expect(refused.code).toBe(ExitCode.FAILED);
    expect(refused.stderr).toMatch(/^error: 401 /);
    const wrong = await cli(['clients', 'list'], { token: 'lk_admin_wrong_token_0123456789' });
    expect(wrong.code).toBe(ExitCode.FAILED);
    const unreachable = await cli(['--endpoint', 'http://127.0.0.1:9', 'health']);
    expect(unreachable.code).toBe(ExitCode.FAILED);
  });

  it('reports health: ready with the version', async () => {
    const health = json<{ ready: boolean; version: string }>(await cli(['--json', 'health']));
    expect(health.ready).toBe(true);
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('clients', () => {
  it('creates, lists, shows, rotates the secret of and deletes a client', async () => {
    const created = json<{ client_id: string; client_secret: string }>(
      await cli([
        '--json',
        'clients',
        'create',
        '--name',
        'cli-app',
        '--grant-type',
        'client_credentials',
        '--scope',
        'read write',
        '--metadata',
        '{"team":"a"}',
      ]),
    );
    expect(created.client_secret.length).toBeGreaterThanOrEqual(32);
    const token = await app.public.post<{ access_token: string }>('/oauth2/token', {
      headers: basic(created.client_id, created.client_secret),
      form: { grant_type: 'client_credentials', scope: 'read' },
    });
    expect(token.status).toBe(200);

    const list = json<{ client_id: string }[]>(await cli(['--json', 'clients', 'list']));
    expect(list.map((client) => client.client_id)).toContain(created.client_id);
    const text = await cli(['clients', 'list']);
    expect(text.stdout).toContain(created.client_id);

    const shown = json<{ client_name: string; metadata: Record<string, unknown>; client_secret?: string }>(
      await cli(['--json', 'clients', 'get', created.client_id]),
    );
    expect(shown.client_name).toBe('cli-app');
    expect(shown.metadata).toEqual({ team: 'a' });
    expect(shown.client_secret).toBeUndefined();

    const rotated = json<{ client_secret: string }>(await cli(['--json', 'clients', 'rotate-secret', created.client_id]));
    expect(rotated.client_secret).not.toBe(created.client_secret);
    const oldSecret = await app.public.post('/oauth2/token', {
      headers: basic(created.client_id, created.client_secret),
      form: { grant_type: 'client_credentials' },
    });
    expect(oldSecret.status).toBe(401);
    const newSecret = await app.public.post('/oauth2/token', {
      headers: basic(created.client_id, rotated.client_secret),
      form: { grant_type: 'client_credentials' },
    });
    expect(newSecret.status).toBe(200);
    const after = json<{ client_name: string; scope: string }>(await cli(['--json', 'clients', 'get', created.client_id]));
    expect(after.client_name).toBe('cli-app');
    expect(after.scope).toBe('read write');

    expect((await cli(['clients', 'delete', created.client_id])).code).toBe(ExitCode.OK);
    const gone = await cli(['clients', 'get', created.client_id]);
    expect(gone.code).toBe(ExitCode.FAILED);
    expect(gone.stderr).toMatch(/^error: 404 not_found/);
  });

  it('refuses bad input with the server error and exit code 1, and bad JSON with exit code 2', async () => {
    const bad = await cli(['clients', 'create', '--redirect-uri', 'not a url']);
    expect(bad.code).toBe(ExitCode.FAILED);
    expect(bad.stderr).toMatch(/^error: 400 /);
    expect((await cli(['clients', 'create', '--metadata', '{nope'])).code).toBe(ExitCode.USAGE);
  });
});

describe('keys', () => {
  it('creates a set, rotates it (the new key signs, the old one stays) and lists without private parts', async () => {
    const created = json<{ keys: { kid: string; d?: string }[] }>(await cli(['--json', 'keys', 'create', 'cli-set', '--alg', 'ES256']));
    expect(created.keys[0]!.d).toBeUndefined();
    const first = created.keys[0]!.kid;
    const rotated = json<{ keys: { kid: string; alg: string }[] }>(await cli(['--json', 'keys', 'rotate', 'cli-set']));
    expect(rotated.keys[0]!.alg).toBe('ES256');
    const listed = json<{ keys: { kid: string; d?: string }[] }>(await cli(['--json', 'keys', 'list', 'cli-set']));
    expect(listed.keys.map((key) => key.kid)).toEqual([rotated.keys[0]!.kid, first]);
    expect(listed.keys.every((key) => key.d === undefined)).toBe(true);
    const withPrivate = json<{ keys: { d?: string }[] }>(await cli(['--json', 'keys', 'list', 'cli-set', '--include-private']));
    expect(withPrivate.keys.every((key) => typeof key.d === 'string')).toBe(true);
    expect((await cli(['keys', 'list', 'no-such-set'])).code).toBe(ExitCode.FAILED);
  });
});

describe('identities', () => {
  it('exports identities with their password hashes and imports them elsewhere with working passwords', async () => {
    for (const name of ['ada', 'grace', 'edsger']) {
      const created = await app.admin.post('/identities', {
        json: {
          traits: { email: `${name}@example.com` },
          credentials: { password: { config: { password: `correct horse ${name} staple` } } },
        },
      });
      expect(created.status).toBe(201);
    }
    await app.admin.post('/identities', { json: { traits: { email: 'nopassword@example.com' } } });

    const file = join(dir, 'identities.jsonl');
    const exported = await cli(['identities', 'export', '--output', file, '--per-page', '2']);
    expect(exported.code, exported.stderr).toBe(ExitCode.OK);
    expect(exported.stderr).toContain('exported 4 identities');
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportedIdentity);
    expect(lines).toHaveLength(4);
    const ada = lines.find((line) => line.traits.email === 'ada@example.com')!;
    expect(ada.credentials?.password.config.hashed_password).toMatch(/^\$argon2id\$/);
    expect(ada.credentials?.password.identifiers).toEqual(['ada@example.com']);
    expect(lines.find((line) => line.traits.email === 'nopassword@example.com')!.credentials).toBeUndefined();

    // The same lines into another instance: every identity arrives, and its password still logs in.
    const other = await bootApp();
    try {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const err = collect(stderr);
      const code = await runCli(['identities', 'import', file], {
        stdin: Readable.from(['']),
        stdout,
        stderr,
        env: { LATCHKEY_ADMIN_URL: other.running.urls.admin!, LATCHKEY_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      });
      expect(code, err()).toBe(ExitCode.OK);
      expect(err()).toContain('imported 4 identities');
      const flow = await other.public.get<{ id: string }>('/self-service/login/api');
      const login = await other.public.post(`/self-service/login?flow=${flow.body.id}`, {
        json: { method: 'password', password_identifier: 'grace@example.com', password: 'correct horse grace staple' },
      });
      expect(login.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('reports the lines it could not import, imports the rest, and exits 1', async () => {
    const input = [
      JSON.stringify({ traits: { email: 'line1@example.com' } }),
      JSON.stringify({ traits: { email: 'not an address' } }),
      JSON.stringify({ traits: { email: 'line1@example.com' } }),
      JSON.stringify({ traits: { email: 'line4@example.com' }, credentials: { password: { config: { hashed_password: '$md5$nope' } } } }),
      JSON.stringify({ traits: { email: 'line5@example.com' } }),
    ].join('\n');
    const run = await cli(['identities', 'import'], { stdin: input });
    expect(run.code).toBe(ExitCode.FAILED);
    expect(run.stderr).toMatch(/line 2: 400 /);
    expect(run.stderr).toMatch(/line 3: 409 conflict/);
    expect(run.stderr).toMatch(/line 4: 400 /);
    expect(run.stderr).toContain('imported 2 identities, 3 failed');
    const found = await app.admin.get<unknown[]>('/identities?credentials_identifier=line5@example.com');
    expect(found.body).toHaveLength(1);
    expect((await cli(['identities', 'import'], { stdin: '{broken\n' })).code).toBe(ExitCode.USAGE);
  });

  it('the admin API gives hashes only when asked, never cached, and refuses other credential types', async () => {
    const list = await app.admin.get<Record<string, unknown>[]>('/identities');
    expect(list.body.every((identity) => identity['credentials'] === undefined)).toBe(true);
    const id = list.body[0]!['id'] as string;
    const one = await app.admin.get<Record<string, unknown>>(`/identities/${id}?include_credential=password`);
    expect(one.status).toBe(200);
    expect(one.headers.get('cache-control')).toBe('no-store');
    expect((await app.admin.get(`/identities/${id}?include_credential=oidc`)).status).toBe(400);
    expect((await app.admin.get('/identities?include_credential=totp')).status).toBe(400);
    expect((await app.anonymousAdmin.get(`/identities/${id}?include_credential=password`)).status).toBe(401);
  });
});

describe('tuples', () => {
  it('writes, checks (exit codes 0 and 3), expands, deletes and imports tuples', async () => {
    expect((await cli(['tuples', 'write', 'groups:eng#member@alice', 'files:plan#viewer@groups:eng#member'])).code).toBe(ExitCode.OK);
    const allowed = await cli(['tuples', 'check', 'files:plan#viewer@alice']);
    expect(allowed.code).toBe(ExitCode.OK);
    expect(allowed.stdout.trim()).toBe('allowed');
    const denied = await cli(['tuples', 'check', 'files:plan#viewer@mallory']);
    expect(denied.code).toBe(ExitCode.NEGATIVE);
    expect(denied.stdout.trim()).toBe('denied');
    const tree = json<{ type: string; children: unknown[] }>(
      await cli(['--json', 'tuples', 'expand', 'files:plan#viewer', '--max-depth', '3']),
    );
    expect(tree.type).toBe('union');
    expect(JSON.stringify(tree)).toContain('alice');

    expect((await cli(['tuples', 'delete', 'groups:eng#member@alice'])).code).toBe(ExitCode.OK);
    expect((await cli(['tuples', 'check', 'files:plan#viewer@alice'])).code).toBe(ExitCode.NEGATIVE);

    const lines = Array.from({ length: 250 }, (_, index) =>
      JSON.stringify({ namespace: 'files', object: `doc-${index}`, relation: 'owner', subject: 'bob' }),
    );
    const imported = await cli(['tuples', 'import'], { stdin: lines.join('\n') });
    expect(imported.code, imported.stderr).toBe(ExitCode.OK);
    expect(imported.stdout.trim()).toBe('imported 250 tuples');
    expect((await cli(['tuples', 'check', 'files:doc-249#owner@bob'])).code).toBe(ExitCode.OK);
    const unknown = await cli(['tuples', 'write', 'nowhere:x#y@z']);
    expect(unknown.code).toBe(ExitCode.FAILED);
  });
});

describe('policies', () => {
  it('imports a file of policies and exports them back', async () => {
    const policies = [
      { id: 'p1', subjects: ['alice'], resources: ['docs:<.*>'], actions: ['read'], effect: 'allow' },
      { id: 'p2', subjects: ['bob'], resources: ['docs:secret'], actions: ['<.*>'], effect: 'deny' },
    ];
    const file = join(dir, 'policies.json');
    await writeFile(file, JSON.stringify(policies));
    const imported = await cli(['policies', 'import', 'regex', file]);
    expect(imported.code, imported.stderr).toBe(ExitCode.OK);
    const exported = json<{ id: string }[]>(await cli(['policies', 'export', 'regex']));
    expect(exported.map((policy) => policy.id).sort()).toEqual(['p1', 'p2']);
    const allowed = await app.admin.post<{ allowed: boolean }>('/engines/acp/service/regex/allowed', {
      json: { subject: 'alice', resource: 'docs:plan', action: 'read' },
    });
    expect(allowed.body.allowed).toBe(true);
    expect((await cli(['policies', 'import', 'regex'], { stdin: '[{"id":"bad","effect":"maybe"}]' })).code).toBe(ExitCode.FAILED);
  });
});

describe('rules', () => {
  it('validates rule files without a server, and imports them all or nothing', async () => {
    const rule = (id: string) => ({
      id,
      match: { methods: ['GET'], url: `http://app.example/${id}/<.*>` },
      authenticators: [{ handler: 'anonymous' }],
      authorizer: { handler: 'allow' },
      mutators: [{ handler: 'noop' }],
    });
    const good = join(dir, 'rules.json');
    await writeFile(good, JSON.stringify([rule('one'), rule('two')]));
    const yaml = join(dir, 'rules.yaml');
    await writeFile(
      yaml,
      `- id: three\n  match: {methods: [GET], url: 'http://app.example/three'}\n  authenticators: [{handler: noop}]\n  authorizer: {handler: allow}\n  mutators: [{handler: noop}]\n`,
    );
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify([
        { ...rule('four'), match: { methods: ['FETCH'], url: 'http://app.example/<(a+)+' } },
        { id: 'x', extra: 1 },
      ]),
    );

    const valid = json<{ valid: boolean; rules: number }>(await cli(['--json', 'rules', 'validate', good, yaml]));
    expect(valid).toMatchObject({ valid: true, rules: 3 });
    const invalid = await cli(['rules', 'validate', good, bad]);
    expect(invalid.code).toBe(ExitCode.FAILED);
    expect(invalid.stdout).toContain(bad);

    const refused = await cli(['rules', 'import', good, bad]);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect((await app.admin.get('/rules/one')).status).toBe(404);

    const imported = json<{ created: number; replaced: number }>(await cli(['--json', 'rules', 'import', good, yaml]));
    expect(imported).toEqual({ created: 3, replaced: 0 });
    const again = json<{ created: number; replaced: number }>(await cli(['--json', 'rules', 'import', good]));
    expect(again).toEqual({ created: 0, replaced: 2 });
    expect((await app.admin.get<{ id: string }>('/rules/three')).body.id).toBe('three');
    expect((await cli(['rules', 'validate', join(dir, 'missing.json')])).code).toBe(ExitCode.USAGE);
  });
});

describe('token', () => {
  it('introspects an active token (exit 0) and an unknown one (exit 3)', async () => {
    const client = json<{ client_id: string; client_secret: string }>(
      await cli(['--json', 'clients', 'create', '--grant-type', 'client_credentials', '--scope', 'read']),
    );
    const issued = await app.public.post<{ access_token: string }>('/oauth2/token', {
      headers: basic(client.client_id, client.client_secret),
      form: { grant_type: 'client_credentials', scope: 'read' },
    });
    const active = json<{ active: boolean; client_id: string }>(await cli(['--json', 'token', 'introspect', issued.body.access_token]));
    expect(active.active).toBe(true);
    expect(active.client_id).toBe(client.client_id);
    const inactive = await cli(['token', 'introspect', 'ory_at_not_a_token']);
    expect(inactive.code).toBe(ExitCode.NEGATIVE);
    expect(inactive.stdout.trim()).toBe('inactive');
  });
});

describe('migrate', () => {
  it("applies nothing to an up-to-date database, reading the service's own settings", async () => {
    const stdout = new PassThrough();
    const out = collect(stdout);
    expect((await cli(['migrate', '--bogus'])).code).toBe(ExitCode.USAGE);
    const code = await runCli(['--json', 'migrate'], {
      stdin: Readable.from(['']),
      stdout,
      stderr: new PassThrough(),
      env: { DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, SECRETS_SYSTEM: 'test-system-secret-0123456789abcdef' },
    });
    expect(code).toBe(ExitCode.OK);
    expect(JSON.parse(out())).toEqual({ applied: [] });
  });
});

describe('the installed command', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('runs as `npx latchkey` against the instance', async () => {
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        'npx',
        ['--no-install', 'latchkey', '--json', 'health'],
        {
          cwd: new URL('../..', import.meta.url).pathname,
          env: { ...process.env, LATCHKEY_ADMIN_URL: app.running.urls.admin!, LATCHKEY_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
        },
        (error, stdout) => resolve({ code: error === null ? 0 : (error.code as number), stdout }),
      );
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ready: true });
  });
});
