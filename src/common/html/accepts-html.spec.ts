import { describe, expect, it } from 'vitest';
import { acceptsHtml } from './accepts-html.js';

describe('acceptsHtml', () => {
  it.each([
    ['a browser navigation', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['html only', 'text/html', true],
    ['html weighed above json', 'application/json;q=0.5, text/html', true],
    ['json', 'application/json', false],
    ['json weighed above html', 'text/html;q=0.4, application/json', false],
    ['wildcards (curl, fetch)', '*/*', false],
    ['html refused with q=0', 'text/html;q=0', false],
    ['no header', undefined, false],
    ['case and spaces', ' TEXT/HTML ; Q=1 ', true],
  ])('%s', (_name, accept, expected) => {
    expect(acceptsHtml(accept)).toBe(expected);
  });
});
