import { setFlagsFromString } from 'node:v8';

/**
 * ReDoS guard. Patterns come from administrators but the strings they run against come from callers,
 * so a backtracking blow-up must be impossible rather than unlikely. V8 ships a linear-time
 * (automaton-based) RegExp engine behind two flags:
 * - `--enable-experimental-regexp-engine` accepts the `l` flag, which compiles only what that engine
 *   can run in linear time and refuses the rest (backreferences, lookaround, counted repetitions above
 *   16). Every stored pattern is first compiled that way, so a pattern is accepted only if it has a
 *   linear-time form.
 * - `--enable-experimental-regexp-engine-on-excessive-backtracks` makes an ordinary RegExp switch to
 *   that engine after `--regexp-backtracks-before-fallback` (50 000) backtracks. Patterns are matched
 *   with the ordinary, faster engine (the `l` form runs typical policy values about ten times slower);
 *   a pathological input costs at most those backtracks and then runs in linear time.
 * V8 reads the second flag when it first compiles a RegExp's code, and a RegExp compiled before it
 * keeps backtracking forever. So the flags are set when this module is first evaluated — main.ts
 * imports it before anything else, so that no pattern of the process is compiled earlier — and every
 * pattern that caller input reaches (policy regex and glob patterns, condition expressions, access
 * rule URLs) is compiled through `compileLinearRegExp`, never with a bare `new RegExp`. The flags are
 * process-wide and only change what happens to a RegExp that has already backtracked 50 000 times,
 * so they are harmless to the rest of the process.
 */
setFlagsFromString('--enable-experimental-regexp-engine');
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const LINEAR_FLAG: string = 'l';
const available: boolean = linearEngineWorks();

function linearEngineWorks(): boolean {
  try {
    new RegExp('a', LINEAR_FLAG);
    return true;
  } catch {
    return false;
  }
}

export function linearRegExpAvailable(): boolean {
  return available;
}

/**
 * Compiles a regular expression that is guaranteed to run in linear time. Throws a `SyntaxError`
 * with the engine's message when `source` is invalid or has no linear-time form, and an `Error` when
 * this runtime has no linear-time engine (then no regular expression is accepted: fail closed).
 */
export function compileLinearRegExp(source: string, flags = ''): RegExp {
  if (!available) throw new Error('this runtime has no linear-time regular expression engine');
  new RegExp(source, `${LINEAR_FLAG}${flags}`);
  return new RegExp(source, flags);
}

/** The engine's message for a refused expression, without the repeated source. */
export function regExpProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^Invalid regular expression: \/.*\/[a-z]*: (.+)$/s.exec(message);
  return match?.[1] ?? message;
}
