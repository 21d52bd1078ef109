import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CourierConfig } from '../../config/app-config.js';
import { ConfigError } from '../../config/config.error.js';
import { EmailTemplateId } from './email-template.js';
import { EmailTemplates } from './email-templates.js';

const folders: string[] = [];

function templates(overridePath?: string): EmailTemplates {
  return new EmailTemplates({ templateOverridePath: overridePath } as CourierConfig);
}

function overrideFolder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'latchkey-templates-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const LINK = 'https://id.example.com/self-service/recovery?flow=0b6d&token=a<b>"c';

describe('EmailTemplates', () => {
  it('renders the built-in recovery e-mail with the link unescaped in text and escaped in HTML', () => {
    const email = templates().render({
      template: EmailTemplateId.RecoveryValid,
      recipient: 'ann@example.com',
      model: { To: 'ann@example.com', RecoveryURL: LINK },
    });
    expect(email.subject).toBe('Recover access to your account');
    expect(email.text).toContain(LINK);
    expect(email.html).toContain('&amp;token&#x3D;a&lt;b&gt;&quot;c');
    expect(email.html).not.toContain('<b>');
  });

  it('says an unknown address was tried, without any link', () => {
    const email = templates().render({
      template: EmailTemplateId.RecoveryInvalid,
      recipient: 'x@example.com',
      model: { To: 'x@example.com' },
    });
    expect(email.subject).toBe('Account access attempted');
    expect(email.text).not.toContain('http');
  });

  it('takes each part from the override folder when present, the built-in one otherwise', () => {
    const root = overrideFolder({
      'verification/valid/email.subject.hbs': 'Confirm {{To}}\nplease',
      'verification/valid/email.body.plaintext.hbs': 'Go to {{VerificationURL}}',
    });
    const email = templates(root).render({
      template: EmailTemplateId.VerificationValid,
      recipient: 'ann@example.com',
      model: { To: 'ann@example.com', VerificationURL: 'https://id.example.com/v?a=1&b=2' },
    });
    expect(email.subject).toBe('Confirm ann@example.com please');
    expect(email.text).toBe('Go to https://id.example.com/v?a=1&b=2');
    expect(email.html).toContain('https://id.example.com/v?a&#x3D;1&amp;b&#x3D;2');
  });

  it('refuses at boot an override that uses an unknown variable or does not parse', () => {
    const misspelt = overrideFolder({ 'recovery/valid/email.body.hbs': '<a href="{{RecoveryUrl}}">reset</a>' });
    expect(() => templates(misspelt)).toThrow(ConfigError);
    const broken = overrideFolder({ 'recovery/invalid/email.subject.hbs': '{{#if To}}unclosed' });
    expect(() => templates(broken)).toThrow(/recovery\/invalid\/email.subject.hbs/);
  });

  it('refuses an override path that is not a folder', () => {
    expect(() => templates(join(tmpdir(), 'latchkey-no-such-folder'))).toThrow(ConfigError);
  });
});
