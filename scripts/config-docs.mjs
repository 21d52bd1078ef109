// Writes the settings table of docs/configuration.md from the declarations in
// src/config/config-variables.ts (read from dist/, which `npm run config:docs` builds first), formatted
// as Prettier would, so that src/config/config-docs.spec.ts finds the committed file up to date.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';

const root = new URL('..', import.meta.url).pathname;
const { withConfigTable } = await import(pathToFileURL(join(root, 'dist', 'src', 'config', 'config-docs.js')).href);
const path = join(root, 'docs', 'configuration.md');
const doc = withConfigTable(readFileSync(path, 'utf8'));
writeFileSync(path, await format(doc, { ...(await resolveConfig(path)), filepath: path }));
console.log(`Wrote ${path}`);
