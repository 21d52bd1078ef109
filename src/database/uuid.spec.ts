import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid.js';

describe('isUuid', () => {
  it('accepts the hyphenated form in either case, and nothing else', () => {
    expect(isUuid('0b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c')).toBe(true);
    expect(isUuid('0B9D2A4E-1C3F-4E5A-9B7C-8D6E5F4A3B2C')).toBe(true);
    for (const bad of [
      '',
      'stub:500',
      '0b9d2a4e1c3f4e5a9b7c8d6e5f4a3b2c',
      '0b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2',
      ' 0b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      '0b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c\n',
      'zb9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
    ])
      expect(isUuid(bad)).toBe(false);
  });
});
