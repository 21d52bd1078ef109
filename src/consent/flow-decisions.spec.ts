import { describe, expect, it } from 'vitest';
import type { Prompt } from './authorization-context.js';
import { ConsentError, ConsentErrorCode } from './consent.errors.js';
import {
  consentMayBeSkipped,
  decideConsentSkip,
  decideLoginSkip,
  flowExpired,
  sameAuthorizationRequest,
  withQueryParameter,
} from './flow-decisions.js';
import type { ScopeRules } from './scope-strategy.js';

const WILDCARD: ScopeRules = { scopeStrategy: 'wildcard', privilegedScopes: [] };
const EXACT: ScopeRules = { scopeStrategy: 'exact', privilegedScopes: [] };

const NOW = new Date('2030-01-01T12:00:00Z');
const secondsAgo = (seconds: number): Date => new Date(NOW.getTime() - seconds * 1000);

function login(prompt: Prompt[] = [], maxAgeSeconds?: number, hintMatches?: (subject: string, forced: string) => boolean) {
  return { prompt: new Set(prompt), maxAgeSeconds, hintMatches };
}

const session = { subject: 'alice', authenticatedAt: secondsAgo(600), forcedSubjectIdentifier: '' };

function codeOf(run: () => unknown): ConsentErrorCode | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConsentError);
    return (error as ConsentError).reason;
  }
}

describe('decideLoginSkip', () => {
  it('skips when a remembered session answers', () => {
    expect(decideLoginSkip(login(), session, NOW)).toBe(true);
  });

  it('asks when there is no session', () => {
    expect(decideLoginSkip(login(), undefined, NOW)).toBe(false);
  });

  it('asks under prompt=login even with a session', () => {
    expect(decideLoginSkip(login(['login']), session, NOW)).toBe(false);
  });

  it('asks when max_age has passed since the session authenticated, skips while it has not', () => {
    expect(decideLoginSkip(login([], 300), session, NOW)).toBe(false);
    expect(decideLoginSkip(login([], 900), session, NOW)).toBe(true);
  });

  it('asks under max_age=0 (a fresh authentication is required)', () => {
    expect(decideLoginSkip(login([], 0), session, NOW)).toBe(false);
  });

  it('is login_required under prompt=none without a session', () => {
    expect(codeOf(() => decideLoginSkip(login(['none']), undefined, NOW))).toBe(ConsentErrorCode.LoginRequired);
  });

  it('is login_required under prompt=none when max_age has passed', () => {
    expect(codeOf(() => decideLoginSkip(login(['none'], 60), session, NOW))).toBe(ConsentErrorCode.LoginRequired);
  });

  it('skips under prompt=none with a valid session', () => {
    expect(decideLoginSkip(login(['none']), session, NOW)).toBe(true);
  });

  it('is login_required when the id_token_hint names another subject, and passes the forced identifier to the check', () => {
    const seen: string[] = [];
    const hint = (subject: string, forced: string): boolean => {
      seen.push(`${subject}|${forced}`);
      return subject === 'bob';
    };
    expect(codeOf(() => decideLoginSkip(login([], undefined, hint), { ...session, forcedSubjectIdentifier: 'f-1' }, NOW))).toBe(
      ConsentErrorCode.LoginRequired,
    );
    expect(seen).toEqual(['alice|f-1']);
    expect(
      decideLoginSkip(
        login([], undefined, () => true),
        session,
        NOW,
      ),
    ).toBe(true);
  });

  it('does not consult the id_token_hint when there is no session to compare it with', () => {
    expect(
      decideLoginSkip(
        login([], undefined, () => false),
        undefined,
        NOW,
      ),
    ).toBe(false);
  });
});

describe('consentMayBeSkipped (RFC 6749 §10.2)', () => {
  it.each([
    ['confidential client, any redirect', 'client_secret_basic', 'http://app.example/cb', true],
    ['public client, https', 'none', 'https://app.example/cb', true],
    ['public client, http loopback IPv4', 'none', 'http://127.0.0.1:8080/cb', true],
    ['public client, http localhost', 'none', 'http://localhost/cb', true],
    ['public client, http *.localhost', 'none', 'http://app.localhost/cb', true],
    ['public client, http loopback IPv6', 'none', 'http://[::1]:9000/cb', true],
    ['public client, plain http', 'none', 'http://app.example/cb', false],
    ['public client, custom scheme', 'none', 'com.example.app:/cb', false],
    ['public client, unparsable', 'none', 'not a url', false],
  ] as const)('%s', (_name, method, redirect, expected) => {
    expect(consentMayBeSkipped({ tokenEndpointAuthMethod: method }, redirect)).toBe(expected);
  });
});

describe('decideConsentSkip', () => {
  const request = (prompt: Prompt[] = [], scope = ['openid', 'photos.read'], audience: string[] = []) => ({
    prompt: new Set(prompt),
    requestedScope: scope,
    requestedAudience: audience,
  });
  const remembered = [{ grantedScope: ['openid', 'photos.*'], grantedAudience: ['https://api.example'] }];

  it('skips when a remembered consent covers every scope (wildcard strategy)', () => {
    expect(decideConsentSkip(request(), true, remembered, WILDCARD)).toBe(true);
  });

  it('asks when the strategy is exact and only a wildcard was granted', () => {
    expect(decideConsentSkip(request(), true, remembered, EXACT)).toBe(false);
  });

  it('asks when one scope is not covered', () => {
    expect(decideConsentSkip(request([], ['openid', 'email']), true, remembered, WILDCARD)).toBe(false);
  });

  it('asks when an audience is not covered, skips when it is', () => {
    expect(decideConsentSkip(request([], ['openid'], ['https://other.example']), true, remembered, WILDCARD)).toBe(false);
    expect(decideConsentSkip(request([], ['openid'], ['https://api.example']), true, remembered, WILDCARD)).toBe(true);
  });

  it('skips when any one of several remembered consents covers the request', () => {
    const several = [{ grantedScope: ['openid'], grantedAudience: [] }, ...remembered];
    expect(decideConsentSkip(request(), true, several, WILDCARD)).toBe(true);
  });

  it('asks under prompt=consent even when covered', () => {
    expect(decideConsentSkip(request(['consent']), true, remembered, WILDCARD)).toBe(false);
  });

  it('never skips for a public client with an insecure redirect', () => {
    expect(decideConsentSkip(request(), false, remembered, WILDCARD)).toBe(false);
  });

  it('is consent_required under prompt=none without a covering consent, or for such a public client', () => {
    expect(codeOf(() => decideConsentSkip(request(['none']), true, [], WILDCARD))).toBe(ConsentErrorCode.ConsentRequired);
    expect(codeOf(() => decideConsentSkip(request(['none']), false, remembered, WILDCARD))).toBe(ConsentErrorCode.ConsentRequired);
  });

  it('skips under prompt=none when covered', () => {
    expect(decideConsentSkip(request(['none']), true, remembered, WILDCARD)).toBe(true);
  });
});

describe('flowExpired', () => {
  it('is false up to the lifetime and true after it', () => {
    expect(flowExpired(secondsAgo(1800), 1800, NOW)).toBe(false);
    expect(flowExpired(secondsAgo(1801), 1800, NOW)).toBe(true);
  });
});

describe('sameAuthorizationRequest', () => {
  const base = 'https://id.example/oauth2/auth?client_id=c&response_type=code&scope=openid%20email&state=abcdefgh';

  it('ignores parameter order, encoding variants and the hand-off verifiers', () => {
    expect(
      sameAuthorizationRequest(base, 'https://id.example/oauth2/auth?state=abcdefgh&scope=openid+email&response_type=code&client_id=c'),
    ).toBe(true);
    expect(sameAuthorizationRequest(base, `${base}&login_verifier=v`)).toBe(true);
    expect(sameAuthorizationRequest(`${base}&consent_verifier=x`, base)).toBe(true);
  });

  it('tells different requests apart', () => {
    expect(sameAuthorizationRequest(base, base.replace('client_id=c', 'client_id=d'))).toBe(false);
    expect(sameAuthorizationRequest(base, `${base}&prompt=none`)).toBe(false);
    expect(sameAuthorizationRequest(base, base.replace('https://id.example', 'https://evil.example'))).toBe(false);
    expect(sameAuthorizationRequest('not a url', 'not a url')).toBe(false);
  });
});

describe('withQueryParameter', () => {
  it('appends without re-encoding the existing query', () => {
    expect(withQueryParameter('https://id.example/oauth2/auth?scope=openid%20email&x=a+b', 'login_verifier', 'v/1')).toBe(
      'https://id.example/oauth2/auth?scope=openid%20email&x=a+b&login_verifier=v%2F1',
    );
  });

  it('starts a query when there is none', () => {
    expect(withQueryParameter('https://id.example/oauth2/sessions/logout', 'logout_verifier', 'v')).toBe(
      'https://id.example/oauth2/sessions/logout?logout_verifier=v',
    );
  });
});
