import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { CliUsageError } from './cli-usage.error.js';

/** The input stream named by a file argument: the file, or stdin for `-` or none. */
export function inputStream(file: string | undefined, stdin: Readable): Readable {
  return file === undefined || file === '-' ? stdin : createReadStream(file);
}

/** One parsed line of a JSON-lines input, with its line number for error messages. */
export interface JsonLine {
  readonly line: number;
  readonly value: unknown;
}

/**
 * Reads JSON lines one at a time (blank lines skipped), so an export of any size streams through
 * without being held in memory. A line that is not JSON stops the read with its line number.
 */
export async function* jsonLines(input: Readable): AsyncGenerator<JsonLine> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch {
      throw new CliUsageError(`line ${line} is not JSON`);
    }
  }
}

/** A whole JSON document (policies and rules files are arrays): a JSON array, or JSON lines. */
export async function jsonDocumentItems(input: Readable): Promise<unknown[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown[];
    } catch {
      throw new CliUsageError('the input is not a JSON array');
    }
  }
  const items: unknown[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      items.push(JSON.parse(line) as unknown);
    } catch {
      throw new CliUsageError(`line ${index + 1} is not JSON`);
    }
  }
  return items;
}
