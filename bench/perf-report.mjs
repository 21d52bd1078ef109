// Where the service's main thread spent a measured run, from the `perf record` files BENCH_PERF writes
// (bench/run.mjs): every sample of the main thread (the event loop) is given to one owner, and the
// owners are listed by their share of the samples.
//
//   node bench/perf-report.mjs <file.perf.data> [more files of the same scenario]   (TOP=40 rows)
//
// The first report of a file turns the service's JIT code record (the jit-<pid>.dump V8 wrote beside
// it) into symbols with `perf inject --jit`, kept as <file>.jit, with perf's symbol files in the same
// folder's .debug rather than the user's ~/.debug.
//
// Owners, the first that fits from the sample's innermost frame outwards:
//   kernel: socket write       inside write/writev (for a loopback HTTP server: its answers; the
//                              receiving side's TCP work and its wake-up run inside the sender's call);
//                              the share spent waking the reader is listed apart ("of which ...")
//   kernel: socket read        inside read
//   garbage collection         V8's collector
//   ours <file> <function>     the innermost JavaScript frame of dist/src
//   <package>                  the innermost JavaScript frame of node_modules
//   node <module>              the innermost JavaScript frame of Node's own library
//   runtime (V8, libuv, ...)   native frames with no JavaScript frame above them (e.g. the event loop)
import { scriptOrigin } from './code-origin.mjs';
import { mainThreadSamples } from './perf-samples.mjs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/perf-report.mjs <file.perf.data> [...]');
  process.exit(2);
}
const top = Number(process.env.TOP ?? 40);

const owners = new Map();
let busy = 0;
let wakeups = 0;
const give = (owner) => owners.set(owner, (owners.get(owner) ?? 0) + 1);

const SOCKET_WRITE = /^(__GI___writev|__GI___libc_write|__libc_write|writev|ksys_write|do_writev)$/;
const SOCKET_READ = /^(__GI___libc_read|__libc_read|read|ksys_read)$/;
const WAKEUP = /^sock_def_readable$/;
const COLLECTOR = /Heap::CollectGarbage|ScavengerCollector|MarkCompactCollector|Heap::PerformGarbageCollection/;
const JS_FRAME = /^JS:[*^~+]?(.*) (\S+):\d+:\d+$/;

function ownerOf(frames) {
  if (frames.some((frame) => SOCKET_WRITE.test(frame))) {
    if (frames.some((frame) => WAKEUP.test(frame))) wakeups += 1;
    return 'kernel: socket write';
  }
  if (frames.some((frame) => SOCKET_READ.test(frame))) return 'kernel: socket read';
  if (frames.some((frame) => COLLECTOR.test(frame))) return 'garbage collection';
  for (const frame of frames) {
    const match = JS_FRAME.exec(frame);
    if (match === null) continue;
    const [, name, url] = match;
    const origin = scriptOrigin(url);
    if (origin?.kind === 'ours') return `ours ${origin.name} ${name || '(anonymous)'}`;
    if (origin?.kind === 'package') return origin.name;
    if (origin?.kind === 'node') return `node ${origin.name}`;
  }
  return 'runtime (V8, libuv, ...)';
}

for (const file of files) {
  for await (const frames of mainThreadSamples(file)) {
    busy += 1;
    give(ownerOf(frames));
  }
}
if (busy === 0) {
  console.log('no sample of a main thread in these files');
  process.exit(1);
}
const share = (count) => `${((100 * count) / busy).toFixed(1).padStart(5)}%`;
const sorted = [...owners].sort((a, b) => b[1] - a[1]);
const ours = sorted.filter(([owner]) => owner.startsWith('ours ')).reduce((total, [, count]) => total + count, 0);
console.log(`main-thread samples: ${busy} (${files.length} file${files.length === 1 ? '' : 's'})`);
console.log(`all of dist/src together: ${share(ours).trim()}`);
for (const [owner, count] of sorted.slice(0, top)) {
  console.log(`${share(count)}  ${owner}`);
  if (owner === 'kernel: socket write' && wakeups > 0) console.log(`${share(wakeups)}    of which waking the reader (sock_def_readable)`);
}
