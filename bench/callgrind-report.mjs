// Reads a callgrind dump of a counted server (BENCH_INSTRUCTIONS_DUMP, bench/instructions.mjs) and
// says where its instructions per request went: by function (self and inclusive) and by where the code
// comes from (our dist/ module, a package, Node's own JavaScript, V8's builtins, native libraries).
// V8's generated code has no symbols valgrind can read, so its addresses are named from the perf map
// the process wrote (`--perf-basic-prof`, /tmp/perf-<pid>.map); code V8 moved or freed after it ran
// stays an address.
//
//   node bench/callgrind-report.mjs <dump file> [requests] [perf map]   (also imported by instructions.mjs)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scriptOrigin } from './code-origin.mjs';

/** The perf map's ranges, sorted by start, for a binary search. */
function readPerfMap(file) {
  const ranges = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match !== null)
      ranges.push({ start: parseInt(match[1], 16), end: parseInt(match[1], 16) + parseInt(match[2], 16), name: match[3] });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

function lookup(ranges, address) {
  let low = 0;
  let high = ranges.length - 1;
  let found;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle].start <= address) {
      found = ranges[middle];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found !== undefined && address < found.end ? found.name : undefined;
}

/**
 * Self and inclusive instructions of every function in a callgrind file (one thread's dump). A cost
 * line right after `calls=` is the callee's inclusive cost, charged to the caller's inclusive figure only.
 */
export function parseDump(text) {
  const names = { fn: new Map(), ob: new Map() };
  const functions = new Map();
  let object = '';
  let current;
  let afterCall = false;
  const named = (kind, rest) => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(rest);
    if (match === null) return rest;
    if (match[2] !== undefined) names[kind].set(match[1], match[2]);
    return names[kind].get(match[1]) ?? rest;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('ob=')) object = named('ob', line.slice(3));
    else if (line.startsWith('cob=')) named('ob', line.slice(4));
    else if (line.startsWith('fn=')) {
      const name = named('fn', line.slice(3));
      const key = `${object}\u0000${name}`;
      current = functions.get(key);
      if (current === undefined) functions.set(key, (current = { name, object, self: 0, inclusive: 0 }));
    } else if (line.startsWith('cfn=')) named('fn', line.slice(4));
    else if (line.startsWith('calls=')) afterCall = true;
    else if (current !== undefined && /^[+\-*]?\d*\s+\d+/.test(line)) {
      const cost = Number(line.trim().split(/\s+/)[1]);
      if (afterCall) current.inclusive += cost;
      else {
        current.self += cost;
        current.inclusive += cost;
      }
      afterCall = false;
    }
  }
  return [...functions.values()];
}

/** Where a function's code comes from, for the grouped table. */
function originOf(name, object) {
  const file = /\s(\/[^\s]+|node:[^\s:]+)(?::\d+){0,2}$/.exec(name)?.[1];
  if (file !== undefined) {
    const origin = scriptOrigin(file);
    if (origin === undefined) return `script ${file.split('/').slice(-2).join('/')}`;
    // Node's library by its top two path segments (node:internal/streams, node:_http_server).
    return origin.kind === 'node' ? origin.name.split('/').slice(0, 2).join('/') : `${origin.kind} ${origin.name}`;
  }
  const kind = /^([A-Za-z]+):(?!:)/.exec(name)?.[1];
  if (kind !== undefined && kind !== 'JS') return `V8 ${kind}`;
  if (/^0x[0-9a-f]+$/.test(name)) return 'generated code, unnamed';
  if (name.startsWith('Builtins_')) return 'V8 builtins';
  if (/^(v8::|cppgc::)/.test(name)) return 'V8 runtime';
  if (name.startsWith('node::')) return 'Node C++';
  if (/^uv_/.test(name)) return 'libuv';
  if (/^llhttp/.test(name)) return 'llhttp';
  return `native ${object.split('/').pop()}`;
}

/** The report's lines: totals, the top functions by self cost, then the origins. */
export function reportDump(dumpFile, requests, perfMapFile) {
  const ranges = perfMapFile === undefined ? [] : readPerfMap(perfMapFile);
  const functions = parseDump(readFileSync(dumpFile, 'utf8')).map((fn) => {
    const address = /^0x([0-9a-f]+)$/.exec(fn.name)?.[1];
    const name = address === undefined ? fn.name : (lookup(ranges, parseInt(address, 16)) ?? fn.name);
    return { ...fn, name };
  });
  // The same JavaScript function can have several code objects (tiers, re-optimisations): one row.
  const byName = new Map();
  for (const fn of functions) {
    const key = fn.name.replace(/^JS:[*~^+]?/, 'JS:').replace(/'\d+$/, '');
    const row = byName.get(key) ?? { name: key, object: fn.object, self: 0, inclusive: 0 };
    row.self += fn.self;
    row.inclusive += fn.inclusive;
    byName.set(key, row);
  }
  const rows = [...byName.values()];
  const total = rows.reduce((sum, row) => sum + row.self, 0);
  const per = (value) => (value / requests).toFixed(0).padStart(8);
  const lines = [`${(total / requests).toFixed(0)} instructions per request (${requests} requests, main thread)`, '', 'by origin (self):'];
  const origins = new Map();
  for (const row of rows) {
    const origin = originOf(row.name, row.object);
    origins.set(origin, (origins.get(origin) ?? 0) + row.self);
  }
  for (const [origin, self] of [...origins].sort((a, b) => b[1] - a[1]).slice(0, 40)) lines.push(`${per(self)}  ${origin}`);
  lines.push('', 'by function (self, inclusive):');
  for (const row of rows.sort((a, b) => b.self - a.self).slice(0, 80))
    lines.push(`${per(row.self)} ${per(row.inclusive)}  ${row.name.slice(0, 150)}`);
  lines.push('', 'ours by function (inclusive, self):');
  for (const row of rows
    .filter((row) => row.name.includes('/dist/src/'))
    .sort((a, b) => b.inclusive - a.inclusive)
    .slice(0, 40))
    lines.push(`${per(row.inclusive)} ${per(row.self)}  ${row.name.slice(0, 150)}`);
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dumpFile, requests = '1', perfMap] = process.argv.slice(2);
  const pid = /(\d+)\.\d+-\d+$/.exec(dumpFile ?? '')?.[1];
  if (dumpFile === undefined) {
    console.error('usage: node bench/callgrind-report.mjs <dump file> [requests] [perf map]');
    process.exit(2);
  }
  console.log(reportDump(dumpFile, Number(requests), perfMap ?? (pid === undefined ? undefined : `/tmp/perf-${pid}.map`)).join('\n'));
}
