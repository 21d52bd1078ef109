import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ChangeNotifier, type Announce } from '../database/change-notifier.js';
import { AcpPoliciesRepository } from './acp-policies.repository.js';
import { AcpRolesRepository } from './acp-roles.repository.js';
import { PolicyCompileError } from './engine/policy-compile.error.js';
import { FLAVORS, type Flavor, type PolicyDefinition } from './engine/policy-definition.js';
import { PolicyIndex } from './engine/policy-index.js';

/** ChangeNotifier topic; the key is `policy:<flavor>:<id>`, `role:<flavor>:<id>`, or `*` for everything. */
export const ACP_TOPIC = 'acp';

/** Past this many changed ids a flavor is reloaded whole rather than patched. */
const MAX_PATCHED_IDS = 500;

type ChangeKind = 'policy' | 'role';

interface FlavorState {
  index: PolicyIndex | undefined;
  reloadAll: boolean;
  readonly changedPolicies: Set<string>;
  readonly changedRoles: Set<string>;
  refreshing: Promise<void> | undefined;
}

/**
 * The compiled index of each flavor, held in process and kept in step with storage. Writes announce
 * the changed id on ChangeNotifier (this instance hears it at once, the others over LISTEN/NOTIFY);
 * the next decision on that flavor first re-reads the changed rows and patches the index, or, after
 * many changes, a lost notification connection or on first use, rebuilds it from storage. A decision
 * therefore sees every change announced before it started; while nothing changed it touches no I/O.
 */
@Injectable()
export class AcpPolicyIndexes implements OnModuleInit {
  private readonly logger = new Logger('AcpPolicyIndexes');
  private readonly states = new Map<Flavor, FlavorState>(
    FLAVORS.map((flavor) => [
      flavor,
      { index: undefined, reloadAll: true, changedPolicies: new Set(), changedRoles: new Set(), refreshing: undefined },
    ]),
  );

  constructor(
    private readonly policies: AcpPoliciesRepository,
    private readonly roles: AcpRolesRepository,
    private readonly notifier: ChangeNotifier,
  ) {}

  onModuleInit(): void {
    // Rebuilding an index is costly: the periodic net drops it only when the policy tables changed.
    this.notifier.subscribe(ACP_TOPIC, (key) => this.changed(key), this.notifier.versionOf(ACP_TOPIC));
  }

  /** The up-to-date index of a flavor: synchronously when nothing changed since it was last used. */
  index(flavor: Flavor): PolicyIndex | Promise<PolicyIndex> {
    const state = this.states.get(flavor)!;
    if (state.index !== undefined && state.refreshing === undefined && !isStale(state)) return state.index;
    return this.refreshed(flavor, state);
  }

  /** Announces a change, inside its write's transaction, to every instance, this one included. */
  announcement(flavor: Flavor, kind: ChangeKind, id: string): Announce {
    return (transaction) => this.notifier.publishWithin(transaction, ACP_TOPIC, `${kind}:${flavor}:${id}`);
  }

  private changed(key: string): void {
    const [kind, flavor] = key.split(':', 2);
    const state = this.states.get(flavor as Flavor);
    const id = key.slice(`${kind}:${flavor}:`.length);
    if (key === '*' || state === undefined || (kind !== 'policy' && kind !== 'role')) {
      for (const each of this.states.values()) each.reloadAll = true;
      return;
    }
    (kind === 'policy' ? state.changedPolicies : state.changedRoles).add(id);
  }

  private async refreshed(flavor: Flavor, state: FlavorState): Promise<PolicyIndex> {
    for (;;) {
      if (state.refreshing !== undefined) {
        await state.refreshing;
        continue;
      }
      if (state.index !== undefined && !isStale(state)) return state.index;
      state.refreshing = this.refresh(flavor, state).finally(() => {
        state.refreshing = undefined;
      });
    }
  }

  private async refresh(flavor: Flavor, state: FlavorState): Promise<void> {
    const reloadAll =
      state.index === undefined || state.reloadAll || state.changedPolicies.size + state.changedRoles.size > MAX_PATCHED_IDS;
    const policyIds = [...state.changedPolicies];
    const roleIds = [...state.changedRoles];
    state.changedPolicies.clear();
    state.changedRoles.clear();
    state.reloadAll = false;
    try {
      if (reloadAll) {
        const [policies, roles] = await Promise.all([this.policies.all(flavor), this.roles.all(flavor)]);
        const index = new PolicyIndex(flavor);
        for (const policy of policies) this.put(index, policy);
        for (const role of roles) index.putRole(role);
        state.index = index;
        return;
      }
      const index = state.index!;
      const [policies, roles] = await Promise.all([this.policies.findMany(flavor, policyIds), this.roles.findMany(flavor, roleIds)]);
      const foundPolicies = new Map(policies.map((policy) => [policy.id, policy]));
      for (const id of policyIds) {
        const policy = foundPolicies.get(id);
        if (policy === undefined) index.removePolicy(id);
        else this.put(index, policy);
      }
      const foundRoles = new Map(roles.map((role) => [role.id, role]));
      for (const id of roleIds) {
        const role = foundRoles.get(id);
        if (role === undefined) index.removeRole(id);
        else index.putRole(role);
      }
    } catch (error) {
      // The changes taken above were not applied: start from storage next time.
      state.reloadAll = true;
      throw error;
    }
  }

  /** A stored policy that no longer compiles (written by another version) never applies; it is logged. */
  private put(index: PolicyIndex, policy: PolicyDefinition): void {
    try {
      index.putPolicy(policy);
    } catch (error) {
      if (!(error instanceof PolicyCompileError)) throw error;
      index.removePolicy(policy.id);
      this.logger.warn({
        msg: 'stored policy does not compile; it is ignored',
        flavor: index.flavor,
        id: policy.id,
        problem: error.message,
      });
    }
  }
}

function isStale(state: FlavorState): boolean {
  return state.reloadAll || state.changedPolicies.size > 0 || state.changedRoles.size > 0;
}
