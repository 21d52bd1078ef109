import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { isForeignKeyViolation, isUniqueViolation, sqlStateOf, violatedConstraintOf } from './sql-state.js';

/** What pg throws: an Error with the SQLSTATE as `code` and the constraint's name. */
function pgError(code: string, constraint?: string): Error {
  return Object.assign(new Error('refused'), { code, constraint });
}

describe('sqlStateOf', () => {
  it('reads pg errors and TypeORM QueryFailedErrors alike', () => {
    expect(sqlStateOf(pgError('23503'))).toBe('23503');
    expect(sqlStateOf(new QueryFailedError('INSERT', [], pgError('23505', 'UQ_x')))).toBe('23505');
    expect(violatedConstraintOf(new QueryFailedError('INSERT', [], pgError('23505', 'UQ_x')))).toBe('UQ_x');
    expect(isForeignKeyViolation(pgError('23503'))).toBe(true);
    expect(isUniqueViolation(new QueryFailedError('INSERT', [], pgError('23505')))).toBe(true);
  });

  it('gives nothing for errors that are not the database’s', () => {
    expect(sqlStateOf(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(sqlStateOf(new Error('x'))).toBeUndefined();
    expect(sqlStateOf(undefined)).toBeUndefined();
    expect(isForeignKeyViolation(pgError('23505'))).toBe(false);
  });
});
