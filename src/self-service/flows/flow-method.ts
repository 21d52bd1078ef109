import type { FlowEntity } from './entities/flow.entity.js';
import type { FlowOutcome } from './flow-outcome.js';
import type { SelfServiceRequest } from './self-service-request.js';

/**
 * A method a flow kind can be submitted with (Kratos' strategies: `password`, `profile`, `link`), picked
 * by the body's `method` once the submit's prologue (load, session rule, restart if expired, decode,
 * CSRF) has passed. `S` is what the kind's prologue found (the session, the identity, ...).
 */
export interface FlowMethod<S> {
  readonly method: string;
  submit(request: SelfServiceRequest, flow: FlowEntity, body: Record<string, unknown>, state: S): Promise<FlowOutcome>;
}

/** The method named by the body's `method`, or undefined (the kind answers "no such method"). */
export function methodOf<M extends { readonly method: string }>(
  methods: readonly M[],
  body: Readonly<Record<string, unknown>>,
): M | undefined {
  const name = body['method'];
  if (typeof name !== 'string') return undefined;
  for (const method of methods) if (method.method === name) return method;
  return undefined;
}
