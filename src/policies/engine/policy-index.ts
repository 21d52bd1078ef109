import type { CompiledPattern } from './compiled-pattern.js';
import type { CompiledPolicy, Dimension } from './compiled-policy.js';
import { PolicyCompiler, type PolicyInput } from './policy-compiler.js';
import { PrefixIndex } from '../../common/collections/prefix-index.js';
import type { AllowedRequest, Flavor, RoleDefinition } from './policy-definition.js';

/** Where a policy is filed: one dimension, under each of that dimension's patterns. */
interface Filing {
  readonly policy: CompiledPolicy;
  readonly dimension: Dimension | undefined;
}

const DIMENSIONS: readonly Dimension[] = ['resources', 'subjects', 'actions'];

/**
 * The decision engine of one flavor: compiled policies and roles, held in memory. Pure: no storage,
 * no HTTP; the caller feeds it policies and roles and asks it questions.
 *
 * A decision does not look at every policy. Each policy is filed in one of three prefix indexes
 * (resources, subjects or actions), under the literal prefix of each of its patterns in that
 * dimension: for a `regex` pattern the text before the first `<`, for a `glob` pattern the text before
 * the first wildcard, for a literal pattern the whole pattern (a hash lookup). A policy can only
 * apply when one of those patterns matches, which needs its prefix to be a prefix of the request's
 * value, so walking the three indexes along the request's resource, subjects and action finds every
 * candidate. The dimension chosen is the one whose least selective pattern is the most selective
 * (literal beats any prefix, a longer prefix beats a shorter one). A policy whose every dimension has
 * a pattern starting with a wildcard is filed under the empty prefix and evaluated on every decision.
 *
 * Deny overrides: the decision is "allowed" when at least one applicable policy allows and none denies;
 * the first applicable deny ends the walk.
 */
export class PolicyIndex {
  private readonly compiler: PolicyCompiler;
  private readonly filings = new Map<string, Filing>();
  private readonly roles = new Map<string, RoleDefinition>();
  private readonly rolesByMember = new Map<string, Set<string>>();
  private readonly indexes: Record<Dimension, PrefixIndex<CompiledPolicy>> = {
    resources: new PrefixIndex(),
    subjects: new PrefixIndex(),
    actions: new PrefixIndex(),
  };
  private decisions = 0;

  constructor(readonly flavor: Flavor) {
    this.compiler = new PolicyCompiler(flavor);
  }

  get policyCount(): number {
    return this.filings.size;
  }

  get roleCount(): number {
    return this.roles.size;
  }

  /** Adds or replaces a policy. Throws PolicyCompileError (and then leaves the index unchanged). */
  putPolicy(input: PolicyInput): CompiledPolicy {
    const policy = this.compiler.compile(input);
    this.removePolicy(policy.id);
    const dimension = chooseDimension(policy);
    if (dimension !== undefined) for (const pattern of policy[dimension]) file(this.indexes[dimension], pattern, policy);
    this.filings.set(policy.id, { policy, dimension });
    return policy;
  }

  removePolicy(id: string): void {
    const filing = this.filings.get(id);
    if (filing === undefined) return;
    this.filings.delete(id);
    const { policy, dimension } = filing;
    if (dimension !== undefined) for (const pattern of policy[dimension]) unfile(this.indexes[dimension], pattern, policy);
  }

  putRole(role: RoleDefinition): void {
    this.removeRole(role.id);
    this.roles.set(role.id, role);
    for (const member of role.members) {
      let ids = this.rolesByMember.get(member);
      if (ids === undefined) this.rolesByMember.set(member, (ids = new Set()));
      ids.add(role.id);
    }
  }

  removeRole(id: string): void {
    const role = this.roles.get(id);
    if (role === undefined) return;
    this.roles.delete(id);
    for (const member of role.members) {
      const ids = this.rolesByMember.get(member);
      ids?.delete(id);
      if (ids?.size === 0) this.rolesByMember.delete(member);
    }
  }

  /** The request's subject and the ids of the roles it is a member of (exact membership, one level). */
  subjectsOf(subject: string): string[] {
    const roleIds = this.rolesByMember.get(subject);
    return roleIds === undefined ? [subject] : [subject, ...roleIds];
  }

  isAllowed(request: AllowedRequest): boolean {
    const subjects = this.subjectsOf(request.subject);
    const mark = (this.decisions = (this.decisions + 1) % Number.MAX_SAFE_INTEGER || 1);
    let allowed = false;
    const visit = (policy: CompiledPolicy): boolean => {
      if (policy.visited === mark) return true;
      policy.visited = mark;
      if (!policy.appliesTo(request, subjects)) return true;
      if (policy.deny) return false;
      allowed = true;
      return true;
    };
    if (!this.indexes.resources.forEachCandidate(request.resource, visit)) return false;
    for (const subject of subjects) if (!this.indexes.subjects.forEachCandidate(subject, visit)) return false;
    if (!this.indexes.actions.forEachCandidate(request.action, visit)) return false;
    return allowed;
  }
}

/** Literal patterns are found by equality, the others by their prefix. */
function file(index: PrefixIndex<CompiledPolicy>, pattern: CompiledPattern, policy: CompiledPolicy): void {
  if (pattern.literal) index.addExact(pattern.prefix, policy);
  else index.addPrefixed(pattern.prefix, policy);
}

function unfile(index: PrefixIndex<CompiledPolicy>, pattern: CompiledPattern, policy: CompiledPolicy): void {
  if (pattern.literal) index.removeExact(pattern.prefix, policy);
  else index.removePrefixed(pattern.prefix, policy);
}

/** undefined when a dimension has no pattern at all: such a policy never applies. */
function chooseDimension(policy: CompiledPolicy): Dimension | undefined {
  let best: Dimension | undefined;
  let bestScore = -1;
  for (const dimension of DIMENSIONS) {
    const patterns = policy[dimension];
    if (patterns.length === 0) return undefined;
    const score = Math.min(...patterns.map((pattern) => (pattern.literal ? Number.MAX_SAFE_INTEGER : pattern.prefix.length)));
    if (score > bestScore) {
      best = dimension;
      bestScore = score;
    }
  }
  return best;
}
