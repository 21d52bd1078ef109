import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation, sqlStateOf, violatedConstraintOf } from './sql-state.js';

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

describe('isDatabaseUnavailable', () => {
  const socketError = (code: string, syscall: string): Error => Object.assign(new Error('x'), { code, syscall });

  it('counts a missing Unix socket at connect as a database that is down', () => {
    expect(isDatabaseUnavailable(socketError('ENOENT', 'connect'))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], socketError('ENOENT', 'connect')))).toBe(true);
  });

  it('does not count other missing files', () => {
    expect(isDatabaseUnavailable(socketError('ENOENT', 'open'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
  });

  it('counts refused TCP connections as before', () => {
    expect(isDatabaseUnavailable(socketError('ECONNREFUSED', 'connect'))).toBe(true);
  });
});
