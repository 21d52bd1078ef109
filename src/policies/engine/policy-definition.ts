/** The three matching flavors; each has its own policies and roles. */
export type Flavor = 'regex' | 'glob' | 'exact';
export const FLAVORS: readonly Flavor[] = ['regex', 'glob', 'exact'];

export type Effect = 'allow' | 'deny';

/** One entry of a policy's `conditions`: `{ "<context key>": { type, options } }`. */
export interface ConditionDefinition {
  readonly type: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** A policy as stored and served (Keto v0.5 `oryAccessControlPolicy`). */
export interface PolicyDefinition {
  readonly id: string;
  readonly description: string;
  readonly effect: Effect;
  readonly subjects: readonly string[];
  readonly resources: readonly string[];
  readonly actions: readonly string[];
  readonly conditions: Readonly<Record<string, ConditionDefinition>>;
}

/** A role: its id may be used as a policy subject, and it stands for each of its members. */
export interface RoleDefinition {
  readonly id: string;
  readonly description: string;
  readonly members: readonly string[];
}

/** The question `POST .../allowed` asks. */
export interface AllowedRequest {
  readonly subject: string;
  readonly resource: string;
  readonly action: string;
  readonly context: Readonly<Record<string, unknown>>;
}
