import { PoliciesError } from './policies.errors.js';
import { sqlStateOf } from '../database/sql-state.js';

/** Input PostgreSQL refused (too long, bad encoding, NUL): input validation should have caught it first. */
const INPUT_ERRORS = new Set(['22001', '22021', '22P05', '54000']);

/** Database errors caused by the input become a 400; every other error is left to the 500 path. */
export function translateDatabaseError(error: unknown): unknown {
  const state = sqlStateOf(error);
  if (state !== undefined && INPUT_ERRORS.has(state)) return PoliciesError.invalidInput('body', 'a value is not acceptable', error);
  return error;
}
