// The CPU worker when the app itself runs from TypeScript (ts-jest specs, ts-node benches).
// Its entry (the first argument, see CpuPool) is a .ts under src/. When backend/dist holds a
// build of the current sources (the CLI launcher's per-file rule, bin/gangsheet.js), the child
// runs that build's compiled entry: the same code without compiling the worker's whole import
// graph with ts-node at every start, and tests start many workers (one per app, and a fresh
// one after every aborted task). Otherwise it compiles the entry on load with ts-node and the
// backend's tsconfig. Compiled builds load the entry's .js directly and
// never use this file.
const path = require('node:path');
const fs = require('node:fs');

const BACKEND = path.join(__dirname, '../..');
const SRC = path.join(BACKEND, 'src');
const DIST = path.join(BACKEND, 'dist');
const entry = process.argv[2];

function compiledEntry() {
  const rel = path.relative(SRC, entry);
  if (rel.startsWith('..') || !rel.endsWith('.ts')) return null;
  const out = path.join(DIST, rel.replace(/\.ts$/, '.js'));
  if (!fs.existsSync(out)) return null;
  const { compiledIsCurrent } = require(path.join(BACKEND, 'bin', 'gangsheet.js'));
  return compiledIsCurrent(SRC, DIST) ? out : null;
}

const compiled = compiledEntry();
if (compiled) require(compiled);
else {
  require('ts-node').register({ transpileOnly: true, project: path.join(BACKEND, 'tsconfig.json') });
  require(entry);
}
