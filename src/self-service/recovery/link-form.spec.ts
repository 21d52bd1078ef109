import { describe, expect, it } from 'vitest';
import { UiMessages } from '../ui/ui-messages.js';
import { linkUrl, readLinkSubmission } from './link-form.js';

describe('readLinkSubmission', () => {
  const noStrategy = UiMessages.noRecoveryStrategy;

  it('accepts an address with or without method link, trimmed', () => {
    expect(readLinkSubmission({ email: ' ann@example.com ' }, noStrategy)).toEqual({ ok: true, email: 'ann@example.com' });
    expect(readLinkSubmission({ email: 'zoë@exämple.com', method: 'link' }, noStrategy)).toEqual({ ok: true, email: 'zoë@exämple.com' });
  });

  it('puts 4000002 on a missing address and 4000004 on a malformed one', () => {
    expect(readLinkSubmission({}, noStrategy)).toMatchObject({ ok: false, emailError: { id: 4000002 } });
    expect(readLinkSubmission({ email: 'ann@' }, noStrategy)).toMatchObject({ ok: false, emailError: { id: 4000004 } });
  });

  it('refuses another method with the "no strategy" message of the kind, on the form', () => {
    expect(readLinkSubmission({ email: 'ann@example.com', method: 'code' }, noStrategy)).toMatchObject({
      ok: false,
      formError: { id: 4010005 },
    });
  });
});

describe('linkUrl', () => {
  it('is Kratos v0.6 form: the flow path with flow and token in the query, URL-encoded', () => {
    expect(linkUrl('https://id.example.com', '/self-service/recovery', 'f-1', 'a+b/c=')).toBe(
      'https://id.example.com/self-service/recovery?flow=f-1&token=a%2Bb%2Fc%3D',
    );
  });
});
