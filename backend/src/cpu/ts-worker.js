// The CPU worker when the app itself runs from TypeScript (ts-jest specs, ts-node benches):
// compile the worker entry (its path is the first argument, see CpuPool) on load with the
// backend's tsconfig. Compiled builds load the entry's .js directly and never use this file.
require('ts-node').register({ transpileOnly: true, project: require('node:path').join(__dirname, '../../tsconfig.json') });
require(process.argv[2]);
