import { sha2Digest } from '../common/crypto/digest.js';
import { Injectable } from '@nestjs/common';
import type { TuplesConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { NamespaceLookup } from './engine/tuple-source.js';

/**
 * Ids of namespaces added at run time (`ensure`) lie in [2^30, 2^31): derived from the name, so every
 * instance and every restart agree on them without storing anything.
 */
const DERIVED_ID_BASE = 2 ** 30;

/**
 * The configured namespaces (NAMESPACES), by name and by the id their tuples are stored under, plus
 * those other contexts add at run time with `ensure`.
 */
@Injectable()
export class NamespaceRegistry implements NamespaceLookup {
  private readonly ids = new Map<string, number>();
  private readonly names = new Map<number, string>();

  constructor(@InjectConfig('tuples') tuples: TuplesConfig) {
    for (const { name, id } of tuples.namespaces) {
      this.ids.set(name, id);
      this.names.set(id, name);
    }
  }

  /**
   * Adds a namespace that is not configured, under an id derived from its name; a configured one keeps
   * its id. Returns the id. Throws when the derived id is taken by another namespace (then configure
   * this one in NAMESPACES with an id of its own).
   */
  ensure(name: string): number {
    const known = this.ids.get(name);
    if (known !== undefined) return known;
    const id = derivedId(name);
    const holder = this.names.get(id);
    if (holder !== undefined) throw new Error(`namespace "${name}" derives id ${id}, which "${holder}" holds`);
    this.ids.set(name, id);
    this.names.set(id, name);
    return id;
  }

  has(name: string): boolean {
    return this.ids.has(name);
  }

  idOf(name: string): number | undefined {
    return this.ids.get(name);
  }

  nameOf(id: number): string | undefined {
    return this.names.get(id);
  }

  /** The ids of every known namespace. */
  knownIds(): number[] {
    return [...this.names.keys()];
  }
}

function derivedId(name: string): number {
  return DERIVED_ID_BASE + (sha2Digest('sha256', name).readUInt32BE(0) % DERIVED_ID_BASE);
}
