import { describe, expect, it } from 'vitest';
import { backendUrl } from './proxy.route.js';
import {
  formsDotSegmentWhenDecoded,
  hasDotSegmentWhenDecoded,
  judgedUrl,
  judgedUrlBySetters,
  normalisePath,
  resolvedSegments,
} from './request-normalisation.js';
import { seededRandom } from '../../test/support/seeded-random.js';

describe('normalisePath', () => {
  it.each([
    ['/', '/'],
    ['/a/b', '/a/b'],
    ['/a/../b', '/b'],
    ['/a/%2e%2e/b', '/b'],
    ['/a/%2E%2e/b', '/b'],
    ['/a/./b', '/a/b'],
    ['/a/%2e/b', '/a/b'],
    ['//a///b', '/a/b'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/a/b/', '/a/b/'],
    ['/a/%2fb', '/a/%2fb'],
    ['/a/..%2fb', '/a/..%2fb'],
    ['/a/...', '/a/...'],
  ])('%s → %s', (input, expected) => {
    expect(normalisePath(input)).toBe(expected);
  });
});

describe('formsDotSegmentWhenDecoded', () => {
  it.each([
    '/a/..%2fb',
    '/a/..%2Fb',
    '/a/%2e%2e/%2fb/..%2f',
    '/a/%2e%2e%2fb',
    '/a/%2E%2e%5cb',
    '/a/..%5Cb',
    '/a/.%2e%2fb',
    '/a/b%2f..',
    '/a/%2f.',
  ])('%s is refused', (path) => {
    expect(formsDotSegmentWhenDecoded(path)).toBe(true);
  });

  it.each(['/a/b', '/a/../b', '/a/%2e%2e/b', '/files/a%2fb', '/files/a%5cb', '/a/...%2fb', '/a/%2f%2fb', '/a/.b%2f'])(
    '%s is kept',
    (path) => {
      expect(formsDotSegmentWhenDecoded(path)).toBe(false);
    },
  );
});

describe('backendUrl (Oathkeeper ConfigureBackendURL)', () => {
  const url = (path: string) => new URL(`http://app.test${path}`);

  it('joins the upstream path and the request path, keeping the query', () => {
    expect(backendUrl({ url: 'http://up:8080/base/', preserve_host: false }, url('/api/x?q=1')).href).toBe('http://up:8080/base/api/x?q=1');
    expect(backendUrl({ url: 'http://up:8080', preserve_host: false }, url('/')).href).toBe('http://up:8080/');
  });

  it('removes the first occurrence of strip_path', () => {
    expect(backendUrl({ url: 'http://up', strip_path: '/api', preserve_host: false }, url('/api/x')).href).toBe('http://up/x');
    expect(backendUrl({ url: 'http://up', strip_path: 'api/', preserve_host: false }, url('/api')).href).toBe('http://up/');
    expect(backendUrl({ url: 'http://up/v1', strip_path: '/api', preserve_host: false }, url('/api/api/x')).href).toBe(
      'http://up/v1/api/x',
    );
  });
});

describe('the shortcuts for paths that need no work', () => {
  it("give the full walks' answers for 50,000 random paths", () => {
    const pieces = ['/', '/', '.', '..', '%2e', '%2E', '%2f', '%5C', 'a', 'bc', '%41', '%'];
    const random = seededRandom(0x9e3779b9);
    const next = (bound: number): number => Math.floor(random() * bound);
    for (let round = 0; round < 50_000; round += 1) {
      let path = next(4) === 0 ? '' : '/';
      for (let length = next(8); length > 0; length -= 1) path += pieces[next(pieces.length)];
      expect(normalisePath(path), path).toBe(resolvedSegments(path));
      expect(formsDotSegmentWhenDecoded(path), path).toBe(hasDotSegmentWhenDecoded(path));
    }
  });
});

describe('judgedUrl', () => {
  it('judges the request under its host, the canonical path and the query', () => {
    expect(judgedUrl('http', 'api.example.com:8080', '/public/../admin', ['a=1', 'b=2']).href).toBe(
      'http://api.example.com:8080/admin?a=1?b=2',
    );
    expect(judgedUrl('https', 'Example.COM', 'files', []).href).toBe('https://example.com/files');
    expect(judgedUrl('http', 'h', '/a#b', ['c#d']).href).toBe('http://h/a%23b?c%23d');
  });

  it('refuses a host that is not bare', () => {
    for (const host of ['', 'evil.com/admin', 'user@h', 'h?x=1', 'h:99999', 'a b'])
      expect(() => judgedUrl('http', host, '/x', []), host).toThrow();
  });

  it("gives the piece-by-piece build's answer for 50,000 random hosts, paths and queries", () => {
    const hosts = [
      'h',
      'api.example.com',
      'H.Example.com:8443',
      'h:',
      '[::1]:80',
      '10.0.0.1',
      '0x7f.1',
      'é.com',
      'a b',
      'h/p',
      'u@h',
      'h?q',
      'h#f',
      'h\\p',
      ' h',
      'h\t',
      '',
    ];
    const pieces = [
      '/',
      '/',
      '.',
      '..',
      '%2e',
      '%2f',
      '\\',
      'a',
      '%41',
      '%',
      '#',
      ' ',
      '\t',
      'é',
      '?',
      '"',
      '<',
      '`',
      '{',
      '^',
      '|',
      '~',
      '\u0000',
    ];
    const random = seededRandom(0x85ebca6b);
    const next = (bound: number): number => Math.floor(random() * bound);
    const text = (): string => {
      let value = '';
      for (let length = next(6); length > 0; length -= 1) value += pieces[next(pieces.length)];
      return value;
    };
    const outcome = (build: () => URL): string => {
      try {
        return build().href;
      } catch {
        return 'refused';
      }
    };
    for (let round = 0; round < 50_000; round += 1) {
      const host = hosts[next(hosts.length)]!;
      const rawPath = (next(4) === 0 ? '' : '/') + text();
      const query = Array.from({ length: next(3) }, text);
      const label = JSON.stringify([host, rawPath, query]);
      expect(
        outcome(() => judgedUrl('http', host, rawPath, query)),
        label,
      ).toBe(outcome(() => judgedUrlBySetters('http', host, rawPath, query)));
    }
  });
});
