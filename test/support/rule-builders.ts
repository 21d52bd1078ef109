import type { AccessRule } from '../../src/rules/index.js';

/** A valid rule (noop → allow → noop) matching `url` for GET; `overrides` replace top-level members. */
export function aRule(id: string, url: string, overrides: Partial<AccessRule> = {}): AccessRule {
  return {
    id,
    description: '',
    match: { methods: ['GET'], url },
    authenticators: [{ handler: 'noop' }],
    authorizer: { handler: 'allow' },
    mutators: [{ handler: 'noop' }],
    errors: [],
    upstream: { url: '', preserve_host: false },
    ...overrides,
  };
}

/** The same rule as a plain JSON document, as a file or a PUT body carries it. */
export function aRuleDocument(id: string, url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    match: { methods: ['GET'], url },
    authenticators: [{ handler: 'noop' }],
    authorizer: { handler: 'allow' },
    mutators: [{ handler: 'noop' }],
    ...overrides,
  };
}
