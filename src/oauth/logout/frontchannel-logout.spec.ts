import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../clients/index.js';
import type { EndedLoginSession } from '../../consent/index.js';
import { FRONTCHANNEL_FALLBACK_SECONDS, frontchannelLogoutPage, frontchannelLogoutUris } from './frontchannel-logout.js';

const ISSUER = 'https://id.example.com';

function client(id: string, uri: string, sessionRequired: boolean): Client {
  return { id, frontchannelLogoutUri: uri, frontchannelLogoutSessionRequired: sessionRequired } as Client;
}

function ended(...clients: Client[]): EndedLoginSession {
  return { subject: 'alice', sid: 'sid-1', participants: clients.map((c) => ({ client: c, forcedSubjectIdentifier: '' })) };
}

describe('frontchannelLogoutUris', () => {
  it('adds iss and sid together to every URI, keeping the registered query', () => {
    const uris = frontchannelLogoutUris(
      ended(
        client('a', 'https://a.example/logout', true),
        client('b', 'https://b.example/logout?tenant=x%20y', true),
        client('c', 'https://c.example/logout', false),
        client('d', '', true),
      ),
      ISSUER,
    );
    expect(uris).toEqual([
      'https://a.example/logout?iss=https%3A%2F%2Fid.example.com&sid=sid-1',
      'https://b.example/logout?tenant=x%20y&iss=https%3A%2F%2Fid.example.com&sid=sid-1',
      'https://c.example/logout?iss=https%3A%2F%2Fid.example.com&sid=sid-1',
    ]);
  });

  it('lists a URI shared by two clients once', () => {
    expect(
      frontchannelLogoutUris(ended(client('a', 'https://a.example/l', false), client('b', 'https://a.example/l', false)), ISSUER),
    ).toEqual(['https://a.example/l?iss=https%3A%2F%2Fid.example.com&sid=sid-1']);
  });
});

describe('frontchannelLogoutPage', () => {
  const location = 'https://rp.example/bye?state=s"1';
  const page = frontchannelLogoutPage(location, [
    'https://a.example/logout?x=1&y=<2>',
    'http://127.0.0.1:8080/fc',
    'https://a.example/other',
  ]);

  it('renders one hidden, sandboxed iframe per URI, escaped, and a link onwards', () => {
    expect(page.status).toBe(200);
    const frames = [...page.body.matchAll(/<iframe ([^>]*)><\/iframe>/g)].map((match) => match[1]!);
    expect(frames).toHaveLength(3);
    expect(frames[0]).toContain('src="https://a.example/logout?x=1&amp;y=&lt;2&gt;"');
    for (const frame of frames) {
      expect(frame).toContain(' hidden');
      expect(frame).toContain('sandbox="allow-same-origin allow-scripts"');
    }
    expect(page.body).toContain('href="https://rp.example/bye?state=s&quot;1"');
  });

  it('allows frames from exactly those origins, its one script by hash, and no framing of itself', () => {
    const csp = page.headers['content-security-policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/; frame-src https:\/\/a\.example http:\/\/127\.0\.0\.1:8080$/);
    const script = /<script>([^<]*)<\/script>/.exec(page.body)![1]!;
    expect(csp).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(page.body).not.toContain('onload');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('moves on by itself without scripts', () => {
    expect(page.headers['refresh']).toBe(`${FRONTCHANNEL_FALLBACK_SECONDS}; url=https://rp.example/bye?state=s%221`);
  });
});
