import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import type { CourierConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { ConfigError } from '../../config/config.error.js';
import { BUILTIN_TEMPLATES } from './builtin-templates.js';
import { EmailTemplateId, templateFolder, type Email, type EmailTemplateModels, type TemplateSources } from './email-template.js';

/** An e-mail ready to queue. */
export interface RenderedEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

type Render = (model: object) => string;

interface CompiledTemplate {
  readonly subject: Render;
  readonly html: Render;
  readonly text: Render;
}

const PART_FILES: Readonly<Record<keyof TemplateSources, string>> = {
  subject: 'email.subject.hbs',
  html: 'email.body.hbs',
  text: 'email.body.plaintext.hbs',
};

/** Data every template is tried with at boot, so a broken override stops the boot rather than a flow. */
const SAMPLE_MODELS: { readonly [T in EmailTemplateId]: EmailTemplateModels[T] } = {
  [EmailTemplateId.RecoveryValid]: { To: 'user@example.com', RecoveryURL: 'https://example.com/self-service/recovery?flow=f&token=t' },
  [EmailTemplateId.RecoveryInvalid]: { To: 'user@example.com' },
  [EmailTemplateId.VerificationValid]: {
    To: 'user@example.com',
    VerificationURL: 'https://example.com/self-service/verification?flow=f&token=t',
  },
  [EmailTemplateId.VerificationInvalid]: { To: 'user@example.com' },
};

/**
 * Renders the courier's e-mails with Handlebars: logic-less like Kratos' Go templates, HTML-escaping by
 * default (the HTML body), and a strict mode that makes a misspelt variable an error instead of an
 * empty link. Each part of each template may be overridden by a file under
 * COURIER_TEMPLATE_OVERRIDE_PATH (`recovery/valid/email.subject.hbs`, `email.body.hbs`,
 * `email.body.plaintext.hbs`, ...); everything is compiled and test-rendered once, at boot.
 */
@Injectable()
export class EmailTemplates {
  private readonly templates: ReadonlyMap<EmailTemplateId, CompiledTemplate>;

  constructor(@InjectConfig('courier') courier: CourierConfig) {
    const overrides = courier.templateOverridePath;
    if (overrides !== undefined && !(existsSync(overrides) && statSync(overrides).isDirectory())) {
      throw new ConfigError('COURIER_TEMPLATE_OVERRIDE_PATH', `${overrides} is not a folder`);
    }
    // An isolated instance: nothing registered globally can leak into or out of our templates.
    const handlebars = Handlebars.create();
    const templates = new Map<EmailTemplateId, CompiledTemplate>();
    for (const id of Object.values(EmailTemplateId)) {
      const sources = { ...BUILTIN_TEMPLATES[id], ...(overrides === undefined ? {} : readOverrides(overrides, id)) };
      const compiled: CompiledTemplate = {
        subject: handlebars.compile(sources.subject, { strict: true, noEscape: true }),
        html: handlebars.compile(sources.html, { strict: true }),
        text: handlebars.compile(sources.text, { strict: true, noEscape: true }),
      };
      tryRender(id, compiled);
      templates.set(id, compiled);
    }
    this.templates = templates;
  }

  render(email: Email): RenderedEmail {
    const template = this.templates.get(email.template)!;
    return {
      // A header: one line, whatever the template holds.
      subject: template.subject(email.model).replace(/\s+/g, ' ').trim(),
      html: template.html(email.model),
      text: template.text(email.model),
    };
  }
}

function readOverrides(root: string, id: EmailTemplateId): Partial<TemplateSources> {
  const found: Partial<Record<keyof TemplateSources, string>> = {};
  for (const [part, file] of Object.entries(PART_FILES) as [keyof TemplateSources, string][]) {
    const path = join(root, templateFolder(id), file);
    if (existsSync(path)) found[part] = readFileSync(path, 'utf8');
  }
  return found;
}

function tryRender(id: EmailTemplateId, template: CompiledTemplate): void {
  for (const [part, render] of Object.entries(template) as [keyof TemplateSources, Render][]) {
    try {
      render(SAMPLE_MODELS[id]);
    } catch (error) {
      throw new ConfigError(
        'COURIER_TEMPLATE_OVERRIDE_PATH',
        `${templateFolder(id)}/${PART_FILES[part]} does not render: ${(error as Error).message}`,
      );
    }
  }
}
