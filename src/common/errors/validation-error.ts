import type { ValidationError } from 'class-validator';
import { CommonErrors, type AppError } from './app-error.js';

/** class-validator failures become one 400 whose message names the first bad field; all are in details. */
export function validationError(errors: ValidationError[]): AppError {
  const fields: Record<string, string[]> = {};
  const walk = (list: ValidationError[], prefix: string): void => {
    for (const error of list) {
      const path = prefix === '' ? error.property : `${prefix}.${error.property}`;
      if (error.constraints !== undefined) fields[path] = Object.values(error.constraints);
      if (error.children !== undefined && error.children.length > 0) walk(error.children, path);
    }
  };
  walk(errors, '');
  const [first] = Object.entries(fields);
  const message = first === undefined ? 'The request body is invalid.' : `${first[0]}: ${first[1].join('; ')}`;
  return CommonErrors.invalidRequest(message, { fields });
}
