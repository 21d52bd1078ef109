import { describe, expect, it } from 'vitest';
import { BUILT_IN_IDENTITY_SCHEMA } from '../../identities/index.js';
import { withMessages, type UiContainer } from './ui-container.js';
import { UiMessages } from './ui-messages.js';
import { csrfNode, emailNode, passwordIdentifierNode, passwordNode, submitNode, traitNodes } from './ui-nodes.js';

describe('UI nodes (Kratos v0.6.3 shapes, reference §1.5)', () => {
  it('csrf_token: hidden, required, group default, messages null, meta {}', () => {
    expect(csrfNode('tok')).toEqual({
      type: 'input',
      group: 'default',
      attributes: { name: 'csrf_token', type: 'hidden', value: 'tok', required: true, disabled: false },
      messages: null,
      meta: {},
    });
  });

  it('password_identifier, password (no value key) and the method button', () => {
    expect(passwordIdentifierNode()).toEqual({
      type: 'input',
      group: 'password',
      attributes: { name: 'password_identifier', type: 'text', value: '', required: true, disabled: false },
      messages: null,
      meta: { label: { id: 1070004, text: 'ID', type: 'info' } },
    });
    expect(passwordNode().attributes).toEqual({ name: 'password', type: 'password', required: true, disabled: false });
    expect(passwordNode().meta.label).toEqual({ id: 1070001, text: 'Password', type: 'info' });
    expect(submitNode('password', 'password', UiMessages.signIn())).toEqual({
      type: 'input',
      group: 'password',
      attributes: { name: 'method', type: 'submit', value: 'password', disabled: false },
      messages: null,
      meta: { label: { id: 1010001, text: 'Sign in', type: 'info', context: {} } },
    });
    expect(emailNode('link').attributes).toEqual({ name: 'email', type: 'email', value: '', required: true, disabled: false });
  });

  it('trait nodes from a schema: input types by type and format, pattern, required, title label, current values', () => {
    const schema = {
      properties: {
        traits: {
          type: 'object',
          required: ['email'],
          properties: {
            email: { type: 'string', format: 'email', title: 'E-Mail' },
            born: { type: 'string', format: 'date' },
            seen: { type: 'string', format: 'date-time' },
            site: { type: 'string', format: 'uri' },
            code: { type: 'string', pattern: '^[A-Z]{3}$' },
            age: { type: 'integer' },
            score: { type: 'number' },
            newsletter: { type: 'boolean' },
          },
        },
      },
    };
    const nodes = traitNodes(schema, 'profile', { email: 'a@b.c', newsletter: false, age: 3 });
    expect(nodes.map((node) => [node.attributes.name, node.attributes.type, node.attributes.value])).toEqual([
      ['traits.email', 'email', 'a@b.c'],
      ['traits.born', 'date', undefined],
      ['traits.seen', 'datetime-local', undefined],
      ['traits.site', 'url', undefined],
      ['traits.code', 'text', undefined],
      ['traits.age', 'number', 3],
      ['traits.score', 'number', undefined],
      ['traits.newsletter', 'checkbox', false],
    ]);
    expect(nodes[0]).toEqual({
      type: 'input',
      group: 'profile',
      attributes: { name: 'traits.email', type: 'email', value: 'a@b.c', required: true, disabled: false },
      messages: null,
      meta: { label: { id: 1070002, text: 'E-Mail', type: 'info', context: { title: 'E-Mail' } } },
    });
    expect(nodes[4]!.attributes.pattern).toBe('^[A-Z]{3}$');
    expect(nodes[1]!.attributes).not.toHaveProperty('value');
    expect(nodes[1]!.meta).toEqual({});
  });

  it('the built-in schema gives e-mail and name nodes', () => {
    expect(traitNodes(BUILT_IN_IDENTITY_SCHEMA, 'password', {}).map((node) => node.attributes.name)).toEqual([
      'traits.email',
      'traits.name.first',
      'traits.name.last',
    ]);
  });
});

describe('UI container helpers', () => {
  const ui: UiContainer = {
    action: 'https://x/self-service/login?flow=1',
    method: 'POST',
    nodes: [csrfNode(''), passwordIdentifierNode('a'), passwordNode()],
  };

  it('messages are omitted when empty and set otherwise', () => {
    expect(withMessages(ui, [])).not.toHaveProperty('messages');
    expect(withMessages(ui, [UiMessages.invalidCredentials()]).messages?.map((message) => message.id)).toEqual([4000006]);
  });

  it('expired-flow messages carry the minutes and expired_at', () => {
    const expiredAt = new Date('2026-01-01T00:00:00Z');
    expect(UiMessages.loginFlowExpired(expiredAt, new Date('2026-01-01T00:01:30Z'))).toEqual({
      id: 4010001,
      text: 'The login flow expired 1.50 minutes ago, please try again.',
      type: 'error',
      context: { expired_at: '2026-01-01T00:00:00.000Z' },
    });
  });
});
