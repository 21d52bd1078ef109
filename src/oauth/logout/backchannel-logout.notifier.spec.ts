import { Logger } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import type { Client } from '../../clients/index.js';
import type { OutboundHttp, OutboundResponse } from '../../common/http/outbound-http.js';
import { OutboundError, OutboundFailure } from '../../common/http/outbound-http.error.js';
import type { EndedLoginSession } from '../../consent/index.js';
import type { SubjectIdentifiers } from '../tokens/subject-identifiers.js';
import { BackchannelLogoutNotifier } from './backchannel-logout.notifier.js';
import type { LogoutTokenInput, LogoutTokenSigner } from './logout-token.signer.js';

function client(id: string, backchannelLogoutUri: string): Client {
  return { id, backchannelLogoutUri, subjectType: 'public' } as Client;
}

function setup(answers: Record<string, number | OutboundError>) {
  const posted: { url: string; form: Record<string, string> }[] = [];
  const signed: LogoutTokenInput[] = [];
  const outbound = {
    postForm: (url: string, form: Record<string, string>): Promise<OutboundResponse> => {
      posted.push({ url, form });
      const answer = answers[url] ?? 200;
      return answer instanceof OutboundError
        ? Promise.reject(answer)
        : Promise.resolve({ status: answer, headers: {}, body: Buffer.alloc(0) });
    },
  } as unknown as OutboundHttp;
  const tokens = {
    sign: (input: LogoutTokenInput) => {
      signed.push(input);
      return Promise.resolve(`token-for-${input.clientId}`);
    },
  } as unknown as LogoutTokenSigner;
  const subjects = {
    forClient: (c: Client, subject: string, forced: string) => forced || `${subject}@${c.id}`,
  } as unknown as SubjectIdentifiers;
  return { notifier: new BackchannelLogoutNotifier(outbound, tokens, subjects), posted, signed };
}

const ended = (...participants: [Client, string][]): EndedLoginSession => ({
  subject: 'alice',
  sid: 'sid-1',
  participants: participants.map(([c, forced]) => ({ client: c, forcedSubjectIdentifier: forced })),
});

describe('BackchannelLogoutNotifier', () => {
  it('posts one token per client with a back-channel URI, for the subject as that client sees it', async () => {
    const { notifier, posted, signed } = setup({});
    const outcomes = await notifier.notify(
      ended([client('a', 'https://a.example/bc'), ''], [client('b', ''), ''], [client('c', 'https://c.example/bc'), 'forced-c']),
    );
    expect(outcomes).toEqual(['delivered', 'delivered']);
    expect(posted).toEqual([
      { url: 'https://a.example/bc', form: { logout_token: 'token-for-a' } },
      { url: 'https://c.example/bc', form: { logout_token: 'token-for-c' } },
    ]);
    expect(signed.map(({ clientId, subject, sid }) => ({ clientId, subject, sid }))).toEqual([
      { clientId: 'a', subject: 'alice@a', sid: 'sid-1' },
      { clientId: 'c', subject: 'forced-c', sid: 'sid-1' },
    ]);
  });

  it('counts 204 as delivered; a refusal or a failure of one client neither rejects nor stops the others', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { notifier } = setup({
      'https://ok.example/': 204,
      'https://refuses.example/': 400,
      'https://down.example/': new OutboundError(OutboundFailure.Timeout, 'slow'),
      'https://private.example/': new OutboundError(OutboundFailure.ForbiddenAddress, 'private'),
    });
    const outcomes = await notifier.notify(
      ended(
        [client('ok', 'https://ok.example/'), ''],
        [client('refuses', 'https://refuses.example/'), ''],
        [client('down', 'https://down.example/'), ''],
        [client('private', 'https://private.example/'), ''],
      ),
    );
    expect(outcomes).toEqual(['delivered', 'refused', 'failed', 'failed']);
    const logged = warn.mock.calls.map(([entry]) => entry as Record<string, unknown>);
    expect(logged.map((entry) => [entry['client_id'], entry['status'] ?? entry['failure']])).toEqual([
      ['refuses', 400],
      ['down', 'timeout'],
      ['private', 'forbidden_address'],
    ]);
    expect(JSON.stringify(logged)).not.toContain('token-for-');
    warn.mockRestore();
  });

  it('has nothing to wait for at shutdown once deliveries settled', async () => {
    const { notifier } = setup({});
    await notifier.notify(ended([client('a', 'https://a.example/bc'), '']));
    await expect(notifier.onModuleDestroy()).resolves.toBeUndefined();
  });
});
