import type { FastifyRequest } from 'fastify';
import { UiError } from './ui.errors.js';

/** One query or form value as text: undefined when absent, empty or repeated (never guessed which one counts). */
export function singleValue(source: unknown, name: string): string | undefined {
  if (source === null || typeof source !== 'object') return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function queryValue(request: FastifyRequest, name: string): string | undefined {
  return singleValue(request.query, name);
}

/** A field a form of ours always carries: 400 when it is missing. */
export function requiredField(request: FastifyRequest, name: string): string {
  const value = singleValue(request.body, name);
  if (value === undefined) throw UiError.invalidRequest(name);
  return value;
}

/** The button pressed: `accept` or `reject`, anything else is a 400. */
export function decisionOf(request: FastifyRequest): 'accept' | 'reject' {
  const decision = requiredField(request, 'decision');
  if (decision !== 'accept' && decision !== 'reject') throw UiError.invalidRequest('decision');
  return decision;
}

/** A checkbox of ours: checked sends `true`. */
export function checked(request: FastifyRequest, name: string): boolean {
  return singleValue(request.body, name) === 'true';
}
