// The CPU worker when the app itself runs from TypeScript (ts-jest specs, ts-node benches):
// compile cpu.worker.ts on load with the backend's tsconfig. Compiled builds load
// cpu.worker.js directly and never use this file.
require('ts-node').register({ transpileOnly: true, project: require('node:path').join(__dirname, '../../tsconfig.json') });
require('./cpu.worker.ts');
