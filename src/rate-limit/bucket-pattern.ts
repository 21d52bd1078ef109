/**
 * A bucket as the plan tables write it: an optional method, then `*` (every request) or a path
 * pattern whose segments are literal, `*` (exactly one segment) or a final `**` (any depth, none
 * included). Patterns are compiled once; `matches` runs on every request, so it compares strings and
 * allocates only for patterns with a `*` segment.
 */
export class BucketPattern {
  readonly method: string | undefined;
  readonly path: string;
  /** Patterns under `/admin` describe the admin API: only requests of the admin listener can match them. */
  readonly adminOnly: boolean;
  private readonly catchAll: boolean;
  private readonly segments: readonly string[];
  private readonly anyDepth: boolean;
  private readonly literal: string | undefined;
  /** Compared lexicographically, larger first: see `compareSpecificity`. */
  private readonly rank: readonly number[];

  constructor(readonly source: string) {
    const space = source.indexOf(' ');
    this.method = space === -1 ? undefined : source.slice(0, space);
    this.path = space === -1 ? source : source.slice(space + 1);
    this.catchAll = this.path === '*';
    const parts = this.catchAll ? [] : this.path.split('/').slice(1);
    this.anyDepth = parts.at(-1) === '**';
    this.segments = this.anyDepth ? parts.slice(0, -1) : parts;
    const wildcards = this.segments.filter((segment) => segment === '*').length;
    this.literal = wildcards === 0 ? `/${this.segments.join('/')}` : undefined;
    this.adminOnly = this.segments[0] === 'admin';
    this.rank = [
      this.catchAll ? 0 : 1,
      this.segments.length - wildcards,
      this.anyDepth ? 0 : 1,
      -wildcards,
      this.method === undefined ? 0 : 1,
    ];
  }

  /** `path` is decoded and without its query string. */
  matches(method: string, path: string): boolean {
    if (this.method !== undefined && this.method !== method) return false;
    if (this.catchAll) return true;
    if (this.literal !== undefined) {
      if (!this.anyDepth) return path === this.literal;
      return this.literal === '/' || path === this.literal || path.startsWith(`${this.literal}/`);
    }
    const parts = path.split('/');
    const count = parts.length - 1;
    if (this.anyDepth ? count < this.segments.length : count !== this.segments.length) return false;
    return this.segments.every((segment, index) => {
      const part = parts[index + 1]!;
      return segment === '*' ? part !== '' : segment === part;
    });
  }

  /**
   * Negative when `this` is the more specific: a path before the catch-all, more literal segments
   * first, then a fixed depth before `/**`, fewer `*` segments, and a named method before none.
   */
  compareSpecificity(other: BucketPattern): number {
    for (let index = 0; index < this.rank.length; index += 1) {
      const difference = other.rank[index]! - this.rank[index]!;
      if (difference !== 0) return difference;
    }
    return 0;
  }
}
