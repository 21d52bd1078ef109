import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from './html.js';

describe('html', () => {
  it('escapes every character that could open markup or leave an attribute', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('escapes interpolated strings but keeps the literal parts', () => {
    const value = '"><img src=x onerror=alert(1)>';
    expect(html`<input value="${value}" />`.value).toBe('<input value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" />');
  });

  it('keeps SafeHtml built by the tag, and joins arrays after escaping each item', () => {
    const items = ['<a>', 'b&c'].map((item) => html`<li>${item}</li>`);
    const list = html`<ul>
      ${items}
    </ul>`;
    expect(list.value.replace(/\s+/g, '')).toBe('<ul><li>&lt;a&gt;</li><li>b&amp;c</li></ul>');
  });

  it('prints numbers as they are', () => {
    expect(html`<p>${403}</p>`).toEqual(new SafeHtml('<p>403</p>'));
  });
});
