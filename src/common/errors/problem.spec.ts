import { NotFoundException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { ErrorFamily } from './error-family.js';
import { ErrorKind } from './error-kind.js';
import { renderError } from './error-renderer.js';
import { toProblem } from './problem.js';

describe('toProblem', () => {
  it('keeps an AppError as it is', () => {
    const problem = toProblem(new AppError(ErrorKind.Conflict, 'conflict', 'taken', { details: { field: 'id' } }));
    expect(problem).toMatchObject({ status: 409, code: 'conflict', message: 'taken', details: { field: 'id' }, debug: undefined });
  });

  it('maps Fastify parser errors by code', () => {
    expect(toProblem({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }).status).toBe(413);
    expect(toProblem({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }).status).toBe(415);
    expect(toProblem({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }).code).toBe('invalid_request');
  });

  it('maps Nest not-found to not_found', () => {
    expect(toProblem(new NotFoundException('Cannot GET /x')).code).toBe('not_found');
  });

  it('turns anything else into an opaque 500 that keeps the cause for debug', () => {
    const problem = toProblem(new TypeError('db password is hunter2'));
    expect(problem.status).toBe(500);
    expect(problem.code).toBe('internal_error');
    expect(problem.message).not.toContain('hunter2');
    expect(problem.debug).toContain('hunter2');
  });
});

describe('toProblem on a database outage', () => {
  const outages: Record<string, unknown> = {
    'a refused connection': Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    'a database starting up': Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    'a database shutting down': Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    'a statement timeout': Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    'a pool-acquire timeout': new Error('timeout exceeded when trying to connect'),
    'a connection cut mid-query': new Error('Connection terminated unexpectedly'),
    "TypeORM's wrapper of a refused connection": { name: 'QueryFailedError', driverError: { code: 'ECONNREFUSED' } },
    "a transaction's connection lost under it": Object.assign(new Error('Query runner already released.'), {
      name: 'QueryRunnerAlreadyReleasedError',
    }),
  };

  for (const [name, error] of Object.entries(outages)) {
    it(`answers ${name} with 503 and Retry-After`, () => {
      const problem = toProblem(error);
      expect(problem.status).toBe(503);
      expect(problem.code).toBe('service_unavailable');
      expect(problem.headers?.['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(problem.details).toEqual({ reason: 'database_unavailable' });
    });
  }

  it('still answers 500 to a statement the database refused', () => {
    expect(toProblem(Object.assign(new Error('relation "x" does not exist'), { code: '42P01' })).status).toBe(500);
  });
});

describe('renderError', () => {
  const internal = toProblem(new Error('secret cause'));

  it('never shows internals unless asked', () => {
    for (const family of [ErrorFamily.OAuth, ErrorFamily.Identity, ErrorFamily.Access]) {
      expect(JSON.stringify(renderError(family, internal, 'r1', false))).not.toContain('secret cause');
      expect(JSON.stringify(renderError(family, internal, 'r1', true))).toContain('secret cause');
    }
  });

  it('renders each family in its own shape', () => {
    const problem = toProblem(new AppError(ErrorKind.NotFound, 'not_found', 'gone'));
    expect(renderError(ErrorFamily.OAuth, problem, 'r1', false)).toEqual({
      error: 'not_found',
      error_description: 'gone',
      status_code: 404,
      request_id: 'r1',
    });
    expect(renderError(ErrorFamily.Identity, problem, 'r1', false)).toEqual({
      error: { id: 'not_found', code: 404, status: 'Not Found', reason: 'gone', message: 'Not Found', request: 'r1' },
    });
    expect(renderError(ErrorFamily.Access, problem, 'r1', false)).toEqual({
      id: 'not_found',
      code: 404,
      status: 'Not Found',
      reason: 'gone',
      message: 'Not Found',
      request: 'r1',
      details: [],
    });
  });
});
