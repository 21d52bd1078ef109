interface RadixNode<T> {
  label: string;
  children: Map<string, RadixNode<T>> | undefined;
  values: Set<T> | undefined;
}

/**
 * Values filed under literal keys, found by the strings they can match:
 * - an exact value (a literal pattern) is found by the string equal to its key: a hash lookup;
 * - a prefixed value (a pattern with a wildcard after its literal prefix) is found by every string
 *   its key is a prefix of: a walk down a radix tree, one edge per step, along the string.
 * A lookup costs O(length of the string + values found), whatever the number of values filed.
 */
export class PrefixIndex<T> {
  private readonly exact = new Map<string, Set<T>>();
  private readonly root: RadixNode<T> = { label: '', children: undefined, values: undefined };

  addExact(key: string, value: T): void {
    let set = this.exact.get(key);
    if (set === undefined) this.exact.set(key, (set = new Set()));
    set.add(value);
  }

  removeExact(key: string, value: T): void {
    const set = this.exact.get(key);
    if (set === undefined) return;
    set.delete(value);
    if (set.size === 0) this.exact.delete(key);
  }

  addPrefixed(prefix: string, value: T): void {
    let node = this.root;
    let position = 0;
    while (position < prefix.length) {
      const first = prefix[position]!;
      const child = node.children?.get(first);
      if (child === undefined) {
        const leaf: RadixNode<T> = { label: prefix.slice(position), children: undefined, values: undefined };
        (node.children ??= new Map()).set(first, leaf);
        node = leaf;
        break;
      }
      const common = commonLength(child.label, prefix, position);
      if (common < child.label.length) {
        // Split the edge: the child keeps the shared part, a new node below it takes the rest.
        const rest: RadixNode<T> = { label: child.label.slice(common), children: child.children, values: child.values };
        child.label = child.label.slice(0, common);
        child.children = new Map([[rest.label[0]!, rest]]);
        child.values = undefined;
      }
      node = child;
      position += common;
    }
    (node.values ??= new Set()).add(value);
  }

  removePrefixed(prefix: string, value: T): void {
    const path: Array<[RadixNode<T>, string]> = [];
    let node = this.root;
    let position = 0;
    while (position < prefix.length) {
      const first = prefix[position]!;
      const child = node.children?.get(first);
      if (child === undefined || !prefix.startsWith(child.label, position)) return;
      path.push([node, first]);
      node = child;
      position += child.label.length;
    }
    if (position !== prefix.length || node.values === undefined) return;
    node.values.delete(value);
    if (node.values.size === 0) node.values = undefined;
    // Drop the nodes left with nothing below them (the edges stay unmerged; lookups do not mind).
    while (path.length > 0 && node.values === undefined && (node.children === undefined || node.children.size === 0)) {
      const [parent, first] = path.pop()!;
      parent.children!.delete(first);
      if (parent.children!.size === 0) parent.children = undefined;
      node = parent;
    }
  }

  /** Calls `visit` with each value `text` can match; stops, returning false, when `visit` does. */
  forEachCandidate(text: string, visit: (value: T) => boolean): boolean {
    const exact = this.exact.get(text);
    if (exact !== undefined) for (const value of exact) if (!visit(value)) return false;
    let node = this.root;
    let position = 0;
    for (;;) {
      if (node.values !== undefined) for (const value of node.values) if (!visit(value)) return false;
      if (position >= text.length || node.children === undefined) return true;
      const child = node.children.get(text[position]!);
      if (child === undefined || !text.startsWith(child.label, position)) return true;
      node = child;
      position += child.label.length;
    }
  }
}

function commonLength(label: string, text: string, offset: number): number {
  let length = 0;
  while (length < label.length && offset + length < text.length && label[length] === text[offset + length]) length += 1;
  return length;
}
