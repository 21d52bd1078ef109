import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CourierConfig, SecretsConfig } from '../../config/app-config.js';
import { Courier } from './courier.js';
import type { CourierMessagesRepository } from './courier-messages.repository.js';
import { EmailTemplateId } from './email-template.js';
import { EmailTemplates } from './email-templates.js';
import type { CourierMessageEntity } from './entities/courier-message.entity.js';

const TOKEN = 'tok3n-that-must-never-leak-0123456789abcdef';
const LINK = `https://id.example.com/self-service/recovery?flow=f&token=${TOKEN}`;

function courier(smtp: boolean): { courier: Courier; stored: CourierMessageEntity[] } {
  const secrets: SecretsConfig = { system: ['test-system-secret-0123456789abcdef'] };
  const config = { smtp: smtp ? { host: 'mail.example.com' } : undefined, templateOverridePath: undefined } as CourierConfig;
  const stored: CourierMessageEntity[] = [];
  const repository = { insert: async (message: CourierMessageEntity) => void stored.push(message) } as unknown as CourierMessagesRepository;
  return { courier: new Courier(secrets, config, new EmailTemplates(config), repository), stored };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Courier', () => {
  it('queues the rendered e-mail with its bodies sealed: the token is not stored in clear, and opens again', async () => {
    const { courier: subject, stored } = courier(true);
    const id = await subject.queue({
      template: EmailTemplateId.RecoveryValid,
      recipient: 'ann@example.com',
      model: { To: 'ann@example.com', RecoveryURL: LINK },
    });
    const [message] = stored;
    expect(message).toMatchObject({
      id,
      recipient: 'ann@example.com',
      template: 'recovery_valid',
      status: 'queued',
      sendCount: 0,
      lastError: null,
    });
    expect(message!.subject).toBe('Recover access to your account');
    expect(message!.bodyText).not.toContain(TOKEN);
    expect(message!.bodyHtml).not.toContain(TOKEN);
    expect(subject.openBodies(id, message!.bodyText, message!.bodyHtml).text).toContain(LINK);
  });

  it('bodies sealed for one message do not open as another', async () => {
    const { courier: subject, stored } = courier(true);
    await subject.queue({
      template: EmailTemplateId.RecoveryValid,
      recipient: 'ann@example.com',
      model: { To: 'ann@example.com', RecoveryURL: LINK },
    });
    const [message] = stored;
    expect(() => subject.openBodies('00000000-0000-4000-8000-000000000000', message!.bodyText, message!.bodyHtml)).toThrow();
  });

  it('without SMTP writes one log line per message, naming it but not its link or token', async () => {
    const log = vi.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const { courier: subject } = courier(false);
    const id = await subject.queue({
      template: EmailTemplateId.RecoveryValid,
      recipient: 'ann@example.com',
      model: { To: 'ann@example.com', RecoveryURL: LINK },
    });
    expect(log).toHaveBeenCalledTimes(1);
    const line = JSON.stringify(log.mock.calls[0]);
    expect(line).toContain(id);
    expect(line).toContain('recovery_valid');
    expect(line).not.toContain(TOKEN);
    expect(line).not.toContain('/self-service/recovery');
  });

  it('with SMTP configured logs nothing when queueing', async () => {
    const log = vi.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    await courier(true).courier.queue({
      template: EmailTemplateId.RecoveryInvalid,
      recipient: 'x@example.com',
      model: { To: 'x@example.com' },
    });
    expect(log).not.toHaveBeenCalled();
  });
});
