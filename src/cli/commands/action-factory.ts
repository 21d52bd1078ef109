import type { CliAction } from '../cli-context.js';

/** Turns a command's action into the handler commander calls (see `action` in cli-context.ts). */
export type ActionFactory = <A extends unknown[]>(run: CliAction<A>) => (...args: unknown[]) => Promise<void>;
