import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiConfig } from '../config/app-config.js';
import { ConfigError } from '../config/config.error.js';
import { loadConfig } from '../config/config.loader.js';
import { UiRenderer } from './ui-renderer.js';

const folders: string[] = [];

async function withTemplates(files: Record<string, string>): Promise<UiConfig> {
  const folder = await mkdtemp(join(tmpdir(), 'latchkey-ui-spec-'));
  folders.push(folder);
  for (const [name, source] of Object.entries(files)) await writeFile(join(folder, name), source, 'utf8');
  return loadConfig({ UI_TEMPLATES_DIR: folder }, '1.0.0').ui;
}

afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('UiRenderer', () => {
  it('escapes every value a page shows, in text and in attributes', () => {
    const renderer = new UiRenderer(loadConfig({ UI_PRODUCT_NAME: '<b>"Corp"</b>' }, '1.0.0').ui);
    const page = renderer.render('message', '<i>title</i>', {
      text: '<img src=x onerror=alert(1)>',
      link: { href: '"><script>', text: 'x' },
    });
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    expect(page).toContain('href="&quot;&gt;&lt;script&gt;"');
  });

  it('an override replaces the built-in template of that name', async () => {
    const renderer = new UiRenderer(await withTemplates({ 'message.hbs': '<p class="custom">{{text}}</p>' }));
    expect(renderer.render('message', 'T', { text: 'hello' })).toContain('<p class="custom">hello</p>');
  });

  it.each([
    ['a syntax error', { 'consent.hbs': '{{#if client}}never closed' }],
    ['an unknown helper', { 'logout.hbs': '{{shout action}}' }],
  ])('an override with %s stops the boot naming UI_TEMPLATES_DIR', async (_name, files) => {
    const ui = await withTemplates(files);
    let thrown: unknown;
    try {
      new UiRenderer(ui);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).key).toBe('UI_TEMPLATES_DIR');
  });
});
