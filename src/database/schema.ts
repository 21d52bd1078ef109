import type { MixedList } from 'typeorm';

/**
 * Every entity and every migration, listed by class: TypeORM globs do not work well under ESM, and a
 * list makes a forgotten registration a compile-time matter. Contexts append theirs here.
 */
export const ENTITIES: MixedList<Function> = [];

export const MIGRATIONS: MixedList<Function> = [];
