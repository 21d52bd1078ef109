import type { AnySchemaObject } from 'ajv';
import type { AuthenticationSession, JudgedRequest } from './authentication-session.js';
import type { DecisionPorts } from './decision-ports.js';

/**
 * One step of a rule, ready to run: its config merged, validated and its templates parsed at load.
 * A step that has its answer at once (noop, allow, a cached session) returns nothing and fails by
 * throwing; one that must wait returns a promise. The pipeline makes no promise for the first kind.
 */
export interface PreparedStep {
  run(request: JudgedRequest, session: AuthenticationSession, ports: DecisionPorts): void | Promise<void>;
}

/**
 * A handler of the pipeline: its config schema, whether a given config reaches another host (then it
 * must be enabled by name in DECISIONS_PIPELINE), and how to prepare a step from a validated config.
 */
export interface HandlerDefinition {
  readonly schema: AnySchemaObject;
  reachesOtherHost(config: Record<string, unknown>, isOwnUrl: (url: string) => boolean): boolean;
  /** Throws HandlerConfigError (templates, URLs) for a config the schema alone cannot judge. */
  prepare(config: Record<string, unknown>, path: string, isOwnUrl: (url: string) => boolean): PreparedStep;
}

/** Thrown by an authenticator that does not handle this request's credentials: the next one is tried. */
export class NotResponsible extends Error {
  constructor() {
    super('not responsible');
    this.name = 'NotResponsible';
  }
}

export const NO_CONFIG: AnySchemaObject = { type: 'object', additionalProperties: false, properties: {} };

export function noConfig(run: PreparedStep['run']): HandlerDefinition {
  return { schema: NO_CONFIG, reachesOtherHost: () => false, prepare: () => ({ run }) };
}
