// Whose JavaScript a profile frame ran, from its script's URL or path: the service's own (dist/src),
// a package (node_modules), or Node's library (node:…). Both profile reports (perf-report.mjs,
// callgrind-report.mjs) group their frames by it.
export function scriptOrigin(url) {
  const ours = /\/dist\/src\/(.*)$/.exec(url);
  if (ours !== null) return { kind: 'ours', name: ours[1] };
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg !== null) return { kind: 'package', name: pkg[1] };
  if (url.startsWith('node:')) return { kind: 'node', name: url };
  return undefined;
}
