import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../clients/index.js';
import type { OAuth2Config } from '../../config/app-config.js';
import { SubjectIdentifiers } from './subject-identifiers.js';

const subjects = new SubjectIdentifiers({ pairwiseSalt: 'pairwise-salt' } as OAuth2Config, { system: ['system-secret-0123456789'] });

const client = (extra: Partial<Client>): Client =>
  ({ id: 'c', subjectType: 'public', sectorIdentifierUri: '', redirectUris: ['https://app.example/cb'], ...extra }) as Client;

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

describe('SubjectIdentifiers', () => {
  it('public clients see the local subject, even with a forced identifier', () => {
    expect(subjects.forClient(client({}), 'alice', 'forced')).toBe('alice');
  });

  it('pairwise: SHA-256 of the redirect URI host, the subject and the salt', () => {
    const pairwise = client({ subjectType: 'pairwise', redirectUris: ['https://app.example/cb', 'https://app.example/two'] });
    expect(subjects.forClient(pairwise, 'alice')).toBe(sha256('app.examplealicepairwise-salt'));
  });

  it('pairwise: the sector_identifier_uri host wins, so clients of one sector share subjects', () => {
    const a = client({
      subjectType: 'pairwise',
      sectorIdentifierUri: 'https://sector.example/s.json',
      redirectUris: ['https://a.example/cb'],
    });
    const b = client({
      subjectType: 'pairwise',
      sectorIdentifierUri: 'https://sector.example/other.json',
      redirectUris: ['https://b.example/cb'],
    });
    expect(subjects.forClient(a, 'alice')).toBe(sha256('sector.examplealicepairwise-salt'));
    expect(subjects.forClient(a, 'alice')).toBe(subjects.forClient(b, 'alice'));
    expect(subjects.forClient(a, 'bob')).not.toBe(subjects.forClient(a, 'alice'));
  });

  it('pairwise: a forced subject identifier replaces the computed one', () => {
    expect(subjects.forClient(client({ subjectType: 'pairwise' }), 'alice', 'forced-sub')).toBe('forced-sub');
  });

  it('derives a salt from the system secret when none is configured', () => {
    const derived = new SubjectIdentifiers({} as OAuth2Config, { system: ['system-secret-0123456789'] });
    const value = derived.forClient(client({ subjectType: 'pairwise' }), 'alice');
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(value).not.toBe(subjects.forClient(client({ subjectType: 'pairwise' }), 'alice'));
  });
});
