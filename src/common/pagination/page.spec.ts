import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { parsePage } from './page.js';

describe('parsePage', () => {
  it('defaults to limit 100, offset 0', () => {
    expect(parsePage({})).toEqual({ limit: 100, offset: 0 });
  });

  it('reads decimal whole numbers', () => {
    expect(parsePage({ limit: '25', offset: '50' })).toEqual({ limit: 25, offset: 50 });
  });

  it('lowers a limit over the maximum to the maximum', () => {
    expect(parsePage({ limit: '501' })).toEqual({ limit: 500, offset: 0 });
    expect(parsePage({ limit: '20' }, { defaultLimit: 10, maxLimit: 15 })).toEqual({ limit: 15, offset: 0 });
  });

  it.each([
    [{ limit: '-1' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ limit: '' }, 'limit'],
    [{ limit: '1e2' }, 'limit'],
    [{ limit: ' 5' }, 'limit'],
    [{ limit: '99999999999999999' }, 'limit'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ offset: '-5' }, 'offset'],
    [{ offset: '2.5' }, 'offset'],
    [{ offset: "0' OR 1=1" }, 'offset'],
  ])('refuses %j with a 400 naming %s', (query, parameter) => {
    let caught: unknown;
    try {
      parsePage(query);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: 'invalid_request', details: { parameter } });
    expect((caught as AppError).message).toContain(parameter);
  });
});
