import { describe, expect, it } from 'vitest';
import { errorPage, notConfiguredPage, shownErrorOf } from './fallback-pages.js';

describe('fallback pages', () => {
  it('shows the error from the query, escaped', () => {
    const page = errorPage(
      shownErrorOf({ error: '<b>x</b>', error_description: 'a "quote"', error_hint: ["<img src=x onerror='y'>", 'z'] }),
      400,
    );
    expect(page.status).toBe(400);
    expect(page.body).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(page.body).toContain('a &quot;quote&quot;');
    expect(page.body).toContain('&lt;img src=x onerror=&#39;y&#39;&gt;');
    expect(page.body).not.toContain('<img');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("script-src 'none'");
  });

  it('names a missing error and leaves out an absent description and hint', () => {
    const page = errorPage(shownErrorOf({}), 200);
    expect(page.body).toContain('unknown_error');
    expect(page.body).not.toContain('Description');
    expect(page.body).not.toContain('Hint');
  });

  it('names the setting that replaces a fallback', () => {
    expect(notConfiguredPage({ setting: 'URLS_LOGIN', purpose: 'login' }).body).toContain('URLS_LOGIN');
  });
});
