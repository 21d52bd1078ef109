import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { RulesError, RulesService, type AccessRule } from '../../src/rules/index.js';
import { bootApp, type TestApp } from '../support/app.js';
import { aRuleDocument } from '../support/rule-builders.js';

interface Readiness {
  status?: string;
  details?: Record<string, string>;
  errors?: Record<string, string>;
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes the whole file at once, as editors and config-map updates do (write aside, then rename). */
async function writeAtomically(path: string, text: string): Promise<void> {
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, text);
  await rename(aside, path);
}

async function ruleIds(app: TestApp): Promise<string[]> {
  const response = await app.admin.get<AccessRule[]>('/rules?limit=500');
  expect(response.status).toBe(200);
  return response.body.map((rule) => rule.id);
}

function matchedId(app: TestApp, method: string, url: string): string {
  try {
    return app.running.app.get(RulesService).match(method, new URL(url)).rule.id;
  } catch (error) {
    if (error instanceof RulesError) return error.code;
    throw error;
  }
}

describe('rules from files (RULES_FILES)', () => {
  let folder: string;
  let app: TestApp;
  let single: string;
  let directory: string;
  let mounted: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'latchkey-rules-'));
    single = join(folder, 'main.json');
    directory = join(folder, 'more');
    await mkdir(join(directory, 'nested'), { recursive: true });
    await writeFile(single, JSON.stringify([aRuleDocument('file-a', 'https://files.example/a/<[0-9]+>')]));
    await writeFile(join(directory, 'one.yaml'), toYaml([aRuleDocument('file-b', 'https://files.example/b')]));
    await writeFile(join(directory, 'nested', 'two.yml'), toYaml([aRuleDocument('file-c', 'https://files.example/c')]));
    await writeFile(join(directory, 'notes.txt'), 'not rules');
    await mkdir(join(directory, '..2024_01_01_old'));
    await writeFile(join(directory, '..2024_01_01_old', 'one.yaml'), toYaml([aRuleDocument('file-b', 'https://files.example/b')]));
    // A Kubernetes config-map volume: the file is a link through `..data`, itself a link to a hidden version folder.
    mounted = join(folder, 'mounted');
    await mkdir(join(mounted, '..v1'), { recursive: true });
    await writeFile(join(mounted, '..v1', 'rules.yaml'), toYaml([aRuleDocument('file-k8s', 'https://files.example/k8s/v1')]));
    await symlink('..v1', join(mounted, '..data'));
    await symlink(join('..data', 'rules.yaml'), join(mounted, 'rules.yaml'));
    app = await bootApp({ RULES_FILES: `${single},${directory},${mounted}` });
  });

  afterAll(async () => {
    await app?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('loads JSON and YAML files, and directories recursively (hidden folders and other files skipped)', async () => {
    expect(await ruleIds(app)).toEqual(['file-a', 'file-b', 'file-c', 'file-k8s']);
    expect(matchedId(app, 'GET', 'https://files.example/a/12')).toBe('file-a');
    expect(matchedId(app, 'GET', 'https://files.example/c')).toBe('file-c');
    const ready = await app.public.get<Readiness>('/health/ready');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ok' }]);
  });

  it('reloads a file when it changes', async () => {
    await writeAtomically(
      single,
      JSON.stringify([aRuleDocument('file-a', 'https://files.example/a/<[a-z]+>'), aRuleDocument('file-d', 'https://files.example/d')]),
    );
    await eventually(async () => (await ruleIds(app)).includes('file-d'));
    expect(matchedId(app, 'GET', 'https://files.example/a/abc')).toBe('file-a');
    expect(matchedId(app, 'GET', 'https://files.example/a/12')).toBe('no_match');
  });

  it('picks up a new file in a watched directory and drops the rules of a removed one', async () => {
    await writeAtomically(join(directory, 'nested', 'three.json'), JSON.stringify([aRuleDocument('file-e', 'https://files.example/e')]));
    await eventually(async () => (await ruleIds(app)).includes('file-e'));
    await rm(join(directory, 'nested', 'two.yml'));
    await eventually(async () => !(await ruleIds(app)).includes('file-c'));
    expect(matchedId(app, 'GET', 'https://files.example/c')).toBe('no_match');
  });

  it('follows a config-map update (the ..data link swapped to a new version folder)', async () => {
    await mkdir(join(mounted, '..v2'));
    await writeFile(join(mounted, '..v2', 'rules.yaml'), toYaml([aRuleDocument('file-k8s', 'https://files.example/k8s/v2')]));
    await symlink('..v2', join(mounted, '..data_tmp'));
    await rename(join(mounted, '..data_tmp'), join(mounted, '..data'));
    await eventually(() => matchedId(app, 'GET', 'https://files.example/k8s/v2') === 'file-k8s');
    expect(matchedId(app, 'GET', 'https://files.example/k8s/v1')).toBe('no_match');
  });

  it('a bad file keeps its last good rules, and readiness says so while staying ready', async () => {
    await writeAtomically(single, JSON.stringify([aRuleDocument('file-a', 'https://files.example/<(?!x).*>')]));
    await eventually(async () => (await app.admin.get<Readiness>('/health/ready')).body.details?.['rules'] !== undefined);
    const ready = await app.admin.get<Readiness>('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details?.['rules']).toContain('main.json');
    const publicReady = await app.public.get<Readiness>('/health/ready');
    expect([publicReady.status, publicReady.body]).toEqual([200, { status: 'ok' }]);
    expect(await ruleIds(app)).toContain('file-d');
    expect(matchedId(app, 'GET', 'https://files.example/a/abc')).toBe('file-a');

    await writeAtomically(single, '[{"id": "file-a", ');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(matchedId(app, 'GET', 'https://files.example/d')).toBe('file-d');

    await writeAtomically(single, JSON.stringify([aRuleDocument('file-a', 'https://files.example/a/<[a-z]+>')]));
    await eventually(async () => (await app.admin.get<Readiness>('/health/ready')).body.details === undefined);
    expect(await ruleIds(app)).not.toContain('file-d');
  });

  it('a file rule cannot be written or deleted through the API (409), and a file may not bring an id that is stored', async () => {
    const put = await app.admin.put<{ id: string }>('/rules/file-a', { json: aRuleDocument('file-a', 'https://elsewhere.example/') });
    expect([put.status, put.body.id]).toEqual([409, 'rule_from_file']);
    expect((await app.admin.delete('/rules/file-a')).status).toBe(409);
    expect(matchedId(app, 'GET', 'https://files.example/a/abc')).toBe('file-a');

    expect((await app.admin.put('/rules/stored-x', { json: aRuleDocument('stored-x', 'https://stored.example/') })).status).toBe(201);
    await writeAtomically(
      join(directory, 'one.yaml'),
      toYaml([aRuleDocument('file-b', 'https://files.example/b2'), aRuleDocument('stored-x', 'https://files.example/x')]),
    );
    await eventually(async () => (await app.admin.get<Readiness>('/health/ready')).body.details?.['rules']?.includes('one.yaml') === true);
    // Neither source overrides the other: the stored rule and the file's last good rules stay.
    expect(matchedId(app, 'GET', 'https://stored.example/')).toBe('stored-x');
    expect(matchedId(app, 'GET', 'https://files.example/b')).toBe('file-b');
    expect(matchedId(app, 'GET', 'https://files.example/b2')).toBe('no_match');
  });

  it('a rule stored by another instance under the id of a file rule stays out of force here, and is reported', async () => {
    const other = await bootApp({}, { databaseUrl: app.databaseUrl });
    try {
      const stored = await other.admin.put('/rules/file-b', { json: aRuleDocument('file-b', 'https://hijack.example/') });
      expect(stored.status, stored.text).toBe(201);
      await eventually(
        async () => (await app.admin.get<Readiness>('/health/ready')).body.details?.['rules']?.includes('"file-b"') === true,
      );
      expect(matchedId(app, 'GET', 'https://files.example/b')).toBe('file-b');
      expect(matchedId(app, 'GET', 'https://hijack.example/')).toBe('no_match');
      expect(matchedId(other, 'GET', 'https://hijack.example/')).toBe('file-b');
      expect((await other.admin.delete('/rules/file-b')).status).toBe(204);
      await eventually(
        async () => (await app.admin.get<Readiness>('/health/ready')).body.details?.['rules']?.includes('"file-b"') !== true,
      );
    } finally {
      await other.close();
    }
  });
});

describe('a rules file that never loaded', () => {
  let folder: string;
  let app: TestApp;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'latchkey-rules-bad-'));
    await writeFile(join(folder, 'good.json'), JSON.stringify([aRuleDocument('good', 'https://good.example/')]));
    await writeFile(join(folder, 'bad.json'), JSON.stringify([{ ...aRuleDocument('bad', 'https://bad.example/'), unknown: true }]));
    app = await bootApp({ RULES_FILES: `${folder},${join(folder, 'missing.yaml')}` });
  });

  afterAll(async () => {
    await app?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('takes the instance out of rotation (503) naming the files, while the good files are in force', async () => {
    const ready = await app.admin.get<Readiness>('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.errors?.['rules']).toContain('bad.json');
    expect(ready.body.errors?.['rules']).toContain('missing.yaml');
    const publicReady = await app.public.get<Readiness>('/health/ready');
    expect([publicReady.status, publicReady.body]).toEqual([503, { errors: { rules: 'unavailable' } }]);
    expect(await ruleIds(app)).toEqual(['good']);
  });

  it('becomes ready once the files load', async () => {
    await writeAtomically(join(folder, 'bad.json'), JSON.stringify([aRuleDocument('bad', 'https://bad.example/')]));
    await writeAtomically(join(folder, 'missing.yaml'), toYaml([aRuleDocument('late', 'https://late.example/')]));
    await eventually(async () => (await app.public.get('/health/ready')).status === 200);
    expect(await ruleIds(app)).toEqual(['bad', 'good', 'late']);
  });
});

describe('glob matching strategy (RULES_MATCHING_STRATEGY=glob)', () => {
  let folder: string;
  let app: TestApp;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'latchkey-rules-glob-'));
    await writeFile(join(folder, 'rules.yaml'), toYaml([aRuleDocument('glob', 'https://glob.example/<{api,web}>/<*>')]));
    app = await bootApp({ RULES_FILES: folder, RULES_MATCHING_STRATEGY: 'glob' });
  });

  afterAll(async () => {
    await app?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('matches file and stored rules as globs, and refuses a regular expression that is not a glob', async () => {
    expect(matchedId(app, 'GET', 'https://glob.example/api/a/b/c')).toBe('glob');
    expect(matchedId(app, 'GET', 'https://glob.example/admin/a')).toBe('no_match');
    const stored = await app.admin.put('/rules/stored-glob', { json: aRuleDocument('stored-glob', 'https://glob.example/files/<[!.]*>') });
    expect(stored.status, stored.text).toBe(201);
    expect(matchedId(app, 'GET', 'https://glob.example/files/readme')).toBe('stored-glob');
    const bad = await app.admin.put('/rules/bad-glob', { json: aRuleDocument('bad-glob', 'https://glob.example/<[a-z>') });
    expect(bad.status).toBe(400);
  });

  it('a validator registered after start checks the rules already in force again', async () => {
    app.running.app
      .get(RulesService)
      .registerValidator((rule) => (rule.id === 'glob' ? [{ path: 'authorizer.handler', message: 'refused from now on' }] : []));
    await eventually(() => matchedId(app, 'GET', 'https://glob.example/api/a') === 'no_match');
    const ready = await app.admin.get<Readiness>('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.errors?.['rules']).toContain('rules.yaml');
    expect(matchedId(app, 'GET', 'https://glob.example/files/readme')).toBe('stored-glob');
  });
});
