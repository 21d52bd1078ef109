/**
 * The small, safe subset of Go's text/template that access rules use (`{{ print .Subject }}`,
 * `{{ .Extra.a.b }}`, `{{ printIndex .MatchContext.RegexpCaptureGroups 0 }}`, pipes such as
 * `{{ .Subject | upper }}`). Templates are parsed once, when a rule is loaded; anything outside the
 * subset (actions such as `if` and `range`, variables, unknown functions, unknown fields of the session)
 * is refused there, so evaluation never meets an unknown construct and nothing is ever `eval`ed.
 * Missing keys render as the empty string (Go's `missingkey=zero` with Oathkeeper's nil-safe `print`).
 */
export class TemplateSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateSyntaxError';
  }
}

type Argument =
  | { readonly type: 'field'; readonly path: readonly string[] }
  | { readonly type: 'literal'; readonly value: string | number }
  | { readonly type: 'pipeline'; readonly pipeline: Pipeline };

interface Command {
  /** A function name, or undefined when the command is a single argument (a field or a literal). */
  readonly fn: string | undefined;
  readonly args: readonly Argument[];
}

type Pipeline = readonly Command[];
type Part = { readonly type: 'text'; readonly text: string } | { readonly type: 'action'; readonly pipeline: Pipeline };

type Fn = (...args: unknown[]) => unknown;

/** Oathkeeper's own helpers and the handful of Sprig text functions rule authors reach for. */
const FUNCTIONS: Readonly<Record<string, { readonly arity: number | 'any'; readonly fn: Fn }>> = {
  print: { arity: 'any', fn: (...args) => args.map(formatValue).join('') },
  printIndex: {
    arity: 2,
    fn: (list, index) => (Array.isArray(list) && typeof index === 'number' && index >= 0 && index < list.length ? list[index] : ''),
  },
  index: { arity: 2, fn: (collection, key) => lookup(collection, typeof key === 'number' ? key : String(key)) },
  lower: { arity: 1, fn: (value) => formatValue(value).toLowerCase() },
  upper: { arity: 1, fn: (value) => formatValue(value).toUpperCase() },
  trim: { arity: 1, fn: (value) => formatValue(value).trim() },
  quote: { arity: 1, fn: (value) => JSON.stringify(formatValue(value)) },
  toJson: { arity: 1, fn: (value) => JSON.stringify(value ?? null) },
  default: { arity: 2, fn: (fallback, value) => (isEmpty(value) ? fallback : value) },
  join: {
    arity: 2,
    fn: (separator, list) => (Array.isArray(list) ? list.map(formatValue).join(formatValue(separator)) : formatValue(list)),
  },
  int: { arity: 1, fn: (value) => Math.trunc(Number(formatValue(value))) || 0 },
  add: { arity: 2, fn: (a, b) => (Number(a) || 0) + (Number(b) || 0) },
  sub: { arity: 2, fn: (a, b) => (Number(a) || 0) - (Number(b) || 0) },
  urlquery: { arity: 'any', fn: (...args) => encodeURIComponent(args.map(formatValue).join('')) },
};

/** The session's fields a template may name, as Oathkeeper's AuthenticationSession spells them. */
const ROOT_FIELDS = new Set(['Subject', 'Extra', 'Header', 'MatchContext']);
const MATCH_CONTEXT_FIELDS = new Set(['RegexpCaptureGroups', 'URL', 'Method']);
const URL_FIELDS = new Set(['Scheme', 'Host', 'Path', 'RawQuery', 'Fragment']);

const MAX_TEMPLATE_LENGTH = 16 * 1024;

export class GoTemplate {
  private constructor(
    readonly source: string,
    private readonly parts: readonly Part[],
  ) {}

  /** Parses a template; throws TemplateSyntaxError for anything outside the supported subset. */
  static parse(source: string): GoTemplate {
    if (source.length > MAX_TEMPLATE_LENGTH) throw new TemplateSyntaxError(`a template is at most ${MAX_TEMPLATE_LENGTH} characters`);
    return new GoTemplate(source, parseParts(source));
  }

  /** True when the template has no action: its text is its value. */
  get isConstant(): boolean {
    return this.parts.every((part) => part.type === 'text');
  }

  render(data: unknown): string {
    let out = '';
    for (const part of this.parts) out += part.type === 'text' ? part.text : formatValue(runPipeline(part.pipeline, data));
    return out;
  }
}

function parseParts(source: string): Part[] {
  const parts: Part[] = [];
  let position = 0;
  let trimNextText = false;
  while (position < source.length) {
    const open = source.indexOf('{{', position);
    let text = source.slice(position, open === -1 ? source.length : open);
    if (trimNextText) text = text.replace(/^\s+/, '');
    trimNextText = false;
    if (open === -1) {
      if (text !== '') parts.push({ type: 'text', text });
      break;
    }
    let inner = open + 2;
    if (source.startsWith('- ', inner) || (source[inner] === '-' && /\s/.test(source[inner + 1] ?? ''))) {
      text = text.replace(/\s+$/, '');
      inner += 1;
    }
    if (text !== '') parts.push({ type: 'text', text });
    const close = findClose(source, inner);
    let body = source.slice(inner, close);
    if (/\s-$/.test(body)) {
      body = body.slice(0, -1);
      trimNextText = true;
    }
    position = close + 2;
    const trimmed = body.trim();
    if (trimmed.startsWith('/*') && trimmed.endsWith('*/')) continue;
    const tokens = tokenize(trimmed);
    const cursor = { tokens, index: 0 };
    const pipeline = parsePipeline(cursor);
    if (cursor.index !== tokens.length) throw new TemplateSyntaxError(`unexpected "${tokens[cursor.index]!.text}" in {{${body}}}`);
    parts.push({ type: 'action', pipeline });
  }
  return parts;
}

/** The end of an action, skipping `}}` inside string literals. */
function findClose(source: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < source.length; i += 1) {
    const char = source[i]!;
    if (quote !== undefined) {
      if (char === '\\' && quote === '"') i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === '`') quote = char;
    else if (char === '}' && source[i + 1] === '}') return i;
  }
  throw new TemplateSyntaxError('unclosed action: missing "}}"');
}

interface Token {
  readonly kind: 'field' | 'ident' | 'string' | 'number' | 'pipe' | 'open' | 'close';
  readonly text: string;
}

function tokenize(body: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s+|(\.(?:[A-Za-z_][A-Za-z0-9_-]*)?(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)|([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"\\\n]|\\.)*")|(`[^`]*`)|(-?\d+)|(\|)|(\()|(\))/y;
  let index = 0;
  while (index < body.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(body);
    if (match === null) throw new TemplateSyntaxError(`unsupported syntax at "${body.slice(index, index + 20)}"`);
    index = pattern.lastIndex;
    const [, field, ident, quoted, raw, number, pipe, open, close] = match;
    if (field !== undefined) tokens.push({ kind: 'field', text: field });
    else if (ident !== undefined) tokens.push({ kind: 'ident', text: ident });
    else if (quoted !== undefined) tokens.push({ kind: 'string', text: JSON.parse(quoted) as string });
    else if (raw !== undefined) tokens.push({ kind: 'string', text: raw.slice(1, -1) });
    else if (number !== undefined) tokens.push({ kind: 'number', text: number });
    else if (pipe !== undefined) tokens.push({ kind: 'pipe', text: pipe });
    else if (open !== undefined) tokens.push({ kind: 'open', text: open });
    else if (close !== undefined) tokens.push({ kind: 'close', text: close });
  }
  return tokens;
}

interface Cursor {
  readonly tokens: readonly Token[];
  index: number;
}

function parsePipeline(cursor: Cursor): Pipeline {
  const commands: Command[] = [parseCommand(cursor, false)];
  while (cursor.tokens[cursor.index]?.kind === 'pipe') {
    cursor.index += 1;
    commands.push(parseCommand(cursor, true));
  }
  return commands;
}

function parseCommand(cursor: Cursor, piped: boolean): Command {
  const first = cursor.tokens[cursor.index];
  if (first === undefined) throw new TemplateSyntaxError('empty command');
  if (first.kind === 'ident') {
    const spec = FUNCTIONS[first.text];
    if (spec === undefined) throw new TemplateSyntaxError(`function "${first.text}" is not supported`);
    cursor.index += 1;
    const args: Argument[] = [];
    for (
      let next = cursor.tokens[cursor.index];
      next !== undefined && next.kind !== 'pipe' && next.kind !== 'close';
      next = cursor.tokens[cursor.index]
    ) {
      args.push(parseArgument(cursor));
    }
    const count = args.length + (piped ? 1 : 0);
    if (spec.arity !== 'any' && count !== spec.arity) {
      throw new TemplateSyntaxError(`function "${first.text}" takes ${spec.arity} arguments, not ${count}`);
    }
    return { fn: first.text, args };
  }
  if (piped) throw new TemplateSyntaxError('only a function may follow "|"');
  return { fn: undefined, args: [parseArgument(cursor)] };
}

function parseArgument(cursor: Cursor): Argument {
  const token = cursor.tokens[cursor.index];
  if (token === undefined) throw new TemplateSyntaxError('missing argument');
  cursor.index += 1;
  switch (token.kind) {
    case 'field':
      return { type: 'field', path: checkedPath(token.text) };
    case 'string':
      return { type: 'literal', value: token.text };
    case 'number':
      return { type: 'literal', value: Number(token.text) };
    case 'open': {
      const pipeline = parsePipeline(cursor);
      if (cursor.tokens[cursor.index]?.kind !== 'close') throw new TemplateSyntaxError('missing ")"');
      cursor.index += 1;
      return { type: 'pipeline', pipeline };
    }
    case 'ident':
      throw new TemplateSyntaxError(`a function call such as "${token.text}" must be in parentheses to be an argument`);
    case 'pipe':
    case 'close':
      throw new TemplateSyntaxError(`unexpected "${token.text}"`);
  }
}

/** `.A.b` → ['A', 'b'], refusing fields the session does not have. */
function checkedPath(text: string): string[] {
  const path = text === '.' ? [] : text.slice(1).split('.');
  const [root, second, third, fourth] = path;
  if (root === undefined) return path;
  if (!ROOT_FIELDS.has(root)) throw new TemplateSyntaxError(`.${root} is not a field of the session`);
  if (root === 'Subject' && second !== undefined) throw new TemplateSyntaxError('.Subject has no fields');
  if (root === 'MatchContext' && second !== undefined) {
    if (!MATCH_CONTEXT_FIELDS.has(second)) throw new TemplateSyntaxError(`.MatchContext.${second} does not exist`);
    if (second === 'URL' && third !== undefined && !URL_FIELDS.has(third))
      throw new TemplateSyntaxError(`.MatchContext.URL.${third} does not exist`);
    if ((second !== 'URL' && third !== undefined) || fourth !== undefined) throw new TemplateSyntaxError(`${text} does not exist`);
  }
  return path;
}

function runPipeline(pipeline: Pipeline, data: unknown): unknown {
  let previous: unknown;
  let first = true;
  for (const command of pipeline) {
    const args = command.args.map((argument) => evaluate(argument, data));
    if (command.fn === undefined) previous = args[0];
    else previous = FUNCTIONS[command.fn]!.fn(...(first ? args : [...args, previous]));
    first = false;
  }
  return previous;
}

function evaluate(argument: Argument, data: unknown): unknown {
  switch (argument.type) {
    case 'literal':
      return argument.value;
    case 'pipeline':
      return runPipeline(argument.pipeline, data);
    case 'field': {
      let value = data;
      for (const key of argument.path) value = lookup(value, key);
      return value;
    }
  }
}

/** Own properties only: a template can never reach a prototype (`.Extra.constructor`). */
function lookup(value: unknown, key: string | number): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) return typeof key === 'number' ? value[key] : undefined;
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[String(key)] : undefined;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || value === 0 || value === false || (Array.isArray(value) && value.length === 0)
  );
}

/** Go's `%v` for the values a session holds; nil is the empty string, as Oathkeeper's `print` makes it. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  if (value instanceof URL) return value.href;
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${formatValue((value as Record<string, unknown>)[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  return '';
}
