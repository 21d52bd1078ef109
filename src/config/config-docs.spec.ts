import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { configTable, withConfigTable } from './config-docs.js';

const path = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));

describe('docs/configuration.md', () => {
  it('holds the settings table as declared (run `npm run config:docs` after changing a setting)', async () => {
    const doc = readFileSync(path, 'utf8');
    expect(await format(withConfigTable(doc), { ...(await resolveConfig(path)), filepath: path })).toBe(doc);
  });

  it('marks the sensitive settings', () => {
    expect(configTable()).toMatch(/^\| `SECRETS_SYSTEM` \| generated \| yes \|/m);
    expect(configTable()).toMatch(/^\| `HOST` \| `127\.0\.0\.1` \| {2}\|/m);
  });
});
