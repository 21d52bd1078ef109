import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config-variables.js';

describe('CONFIG_VARIABLES', () => {
  it('fills each AppConfig field from one setting only', () => {
    const fields = Object.values(CONFIG_VARIABLES).map((variable) => variable.feeds);
    expect(fields.filter((field, index) => fields.indexOf(field) !== index)).toEqual([]);
  });
});
