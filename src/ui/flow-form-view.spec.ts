import { describe, expect, it } from 'vitest';
import {
  UiMessages,
  csrfNode,
  passwordIdentifierNode,
  passwordNode,
  submitNode,
  traitNodes,
  type UiContainer,
} from '../self-service/index.js';
import { formsOf, messageViews } from './flow-form-view.js';

const schema = {
  properties: {
    traits: {
      type: 'object',
      required: ['email'],
      properties: {
        email: { type: 'string', format: 'email', title: 'E-Mail' },
        newsletter: { type: 'boolean', title: 'Newsletter' },
        team: { type: 'string', title: 'Team' },
      },
    },
  },
};

describe('forms of a flow container', () => {
  const settings: UiContainer = {
    action: 'https://id.example/self-service/settings?flow=1',
    method: 'POST',
    nodes: [
      csrfNode('token'),
      ...traitNodes(schema, 'profile', { email: 'a@example.com', newsletter: true }),
      submitNode('profile', 'profile', UiMessages.labelSave()),
      passwordNode(),
      submitNode('password', 'password', UiMessages.labelSave()),
    ],
  };

  it('one form per method group when split, each with the CSRF node first', () => {
    const forms = formsOf(settings, { splitByGroup: true, newPassword: true });
    expect(forms.map((form) => [form.heading, form.nodes.map((node) => node.name)])).toEqual([
      ['Profile', ['csrf_token', 'traits.email', 'traits.newsletter', 'traits.team', 'method']],
      ['Password', ['csrf_token', 'password', 'method']],
    ]);
    expect(new Set(forms.flatMap((form) => form.nodes.map((node) => node.id))).size).toBe(8);
  });

  it('renders each node type generically: hidden, text with schema title, checkbox, submit, password without value', () => {
    const [profile, password] = formsOf(settings, { splitByGroup: true, newPassword: true });
    const [csrf, email, newsletter, team, save] = profile!.nodes;
    expect(csrf).toMatchObject({ isHidden: true, value: 'token' });
    expect(email).toMatchObject({
      type: 'email',
      label: 'E-Mail',
      value: 'a@example.com',
      hasValue: true,
      required: true,
      autocomplete: 'username',
    });
    expect(newsletter).toMatchObject({ isCheckbox: true, checked: true, label: 'Newsletter' });
    expect(team).toMatchObject({ type: 'text', label: 'Team', hasValue: false, required: false });
    expect(save).toMatchObject({ isSubmit: true, name: 'method', value: 'profile', label: 'Save' });
    expect(password!.nodes[1]).toMatchObject({ type: 'password', hasValue: false, autocomplete: 'new-password' });
  });

  it('one form when not split; the sign-in password is the current one', () => {
    const forms = formsOf(settings, { splitByGroup: false, newPassword: false });
    expect(forms).toHaveLength(1);
    expect(forms[0]!.nodes.find((node) => node.name === 'password')?.autocomplete).toBe('current-password');
  });

  it('shows the identifier hint only in an empty sign-in identifier', () => {
    const login = (identifier: string): UiContainer => ({
      action: 'https://id.example/self-service/login?flow=1',
      method: 'POST',
      nodes: [csrfNode('token'), passwordIdentifierNode(identifier), passwordNode()],
    });
    const options = { splitByGroup: false, newPassword: false, identifierHint: 'hint@example.com' };
    const [empty] = formsOf(login(''), options);
    expect(empty!.nodes.map((node) => [node.name, node.value, node.hasValue])).toEqual([
      ['csrf_token', 'token', true],
      ['password_identifier', 'hint@example.com', true],
      ['password', '', false],
    ]);
    const [typed] = formsOf(login('typed@example.com'), options);
    expect(typed!.nodes[1]).toMatchObject({ value: 'typed@example.com' });
  });

  it('carries node messages and marks errors', () => {
    const messages = messageViews([UiMessages.invalidCredentials(), UiMessages.settingsSaved()]);
    expect(messages.map((message) => [message.id, message.isError])).toEqual([
      [4000006, true],
      [1050001, false],
    ]);
    expect(messageViews(null)).toEqual([]);
  });
});
