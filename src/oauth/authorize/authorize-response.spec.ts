import { describe, expect, it } from 'vitest';
import { deliverToClient } from './authorize-response.js';

describe('deliverToClient', () => {
  const parameters = { code: 'abc', state: 'a b&c=d' };

  it('adds the parameters to the query, keeping the query the redirect URI has', () => {
    expect(deliverToClient('https://c.example/cb', 'query', parameters)).toEqual({
      kind: 'redirect',
      location: 'https://c.example/cb?code=abc&state=a+b%26c%3Dd',
    });
    expect(deliverToClient('https://c.example/cb?x=1', 'query', parameters)).toEqual({
      kind: 'redirect',
      location: 'https://c.example/cb?x=1&code=abc&state=a+b%26c%3Dd',
    });
    expect(deliverToClient('https://c.example/cb?', 'query', { code: 'abc' })).toEqual({
      kind: 'redirect',
      location: 'https://c.example/cb?code=abc',
    });
  });

  it('puts them in the fragment', () => {
    expect(deliverToClient('https://c.example/cb?x=1', 'fragment', { access_token: 't', state: 's' })).toEqual({
      kind: 'redirect',
      location: 'https://c.example/cb?x=1#access_token=t&state=s',
    });
  });

  it('posts them with a form whose values are escaped, with no cache and only its own script', () => {
    const delivery = deliverToClient('https://c.example/cb?a=1&b=2', 'form_post', { code: 'abc', state: '"><script>x()</script>' });
    if (delivery.kind !== 'page') throw new Error('expected a page');
    const { page } = delivery;
    expect(page.status).toBe(200);
    expect(page.body).toContain('<form method="post" action="https://c.example/cb?a=1&amp;b=2">');
    expect(page.body).toContain('<input type="hidden" name="code" value="abc" />');
    expect(page.body).toContain('value="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"');
    expect(page.body).not.toContain('<script>x()');
    expect(page.body).toContain('<noscript><button type="submit">Continue</button></noscript>');
    expect(page.headers['cache-control']).toBe('no-store');
    const csp = page.headers['content-security-policy']!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
  });
});
