import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { NamespaceLookup } from './engine/tuple-source.js';

/** The configured namespaces (NAMESPACES), by name and by the id their tuples are stored under. */
@Injectable()
export class NamespaceRegistry implements NamespaceLookup {
  private readonly ids = new Map<string, number>();
  private readonly names = new Map<number, string>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    for (const { name, id } of config.tuples.namespaces) {
      this.ids.set(name, id);
      this.names.set(id, name);
    }
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
}
