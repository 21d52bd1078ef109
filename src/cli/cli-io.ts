import type { Readable, Writable } from 'node:stream';

/** What a CLI run reads and writes: the process's streams in use, buffers in tests. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Exit codes. `NEGATIVE` is a clean "no" a script may branch on: a check that is not allowed, an
 * inactive token, an instance that is not ready.
 */
export const ExitCode = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  NEGATIVE: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Prints a command's result as JSON (`--json`) or as the command's own lines of text. */
export class CliOutput {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}

  result(value: unknown, text: () => string): void {
    this.io.stdout.write(this.json ? `${JSON.stringify(value, null, 2)}\n` : ensureNewline(text()));
  }

  /** A line of JSON on stdout, whatever the mode: the streaming formats (JSON lines). */
  line(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** Progress and notices go to stderr, so stdout stays the data. */
  progress(message: string): void {
    this.io.stderr.write(ensureNewline(message));
  }
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Left-aligned columns, for lists printed as text. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const render = (row: readonly string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [render(header), ...rows.map(render)].join('\n');
}
