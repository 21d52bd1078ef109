import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ConsentError } from './consent.errors.js';

interface QueryParameterOptions {
  /** Also read under these names when the main one is absent (`challenge` for `login_challenge`, as Hydra). */
  readonly aliases?: readonly string[];
  readonly required: boolean;
}

/**
 * Handler parameter: one query parameter as a string. Repeated is a 400; absent or empty is a 400
 * when required, undefined otherwise. Other query parameters are ignored, as Hydra does.
 */
export const QueryParameter = createParamDecorator(
  ([name, options]: readonly [string, QueryParameterOptions], context: ExecutionContext): string | undefined => {
    const query = context.switchToHttp().getRequest<FastifyRequest>().query as Record<string, unknown>;
    for (const candidate of [name, ...(options.aliases ?? [])]) {
      const value = query[candidate];
      if (Array.isArray(value)) throw ConsentError.invalidRequest(`${candidate} must be given once.`, { parameter: candidate });
      if (typeof value === 'string' && value !== '') return value;
    }
    if (options.required) throw ConsentError.invalidRequest(`${name} is required.`, { parameter: name });
    return undefined;
  },
);
