/**
 * `npm run test:unit`: the specs next to the code (src/**\/*.spec.ts), which need no PostgreSQL
 * or Redis, without the few that run the engine for seconds (timed searches, threads, child
 * processes). Those and the API e2e specs run in `npm test`.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/src/gangsheet/shape/shape\\.spec\\.ts$',
    '<rootDir>/src/gangsheet/shape/race\\.spec\\.ts$',
    '<rootDir>/src/gangsheet/shape/overlap\\.spec\\.ts$',
    '<rootDir>/src/gangsheet/render/print-files\\.spec\\.ts$',
    '<rootDir>/src/bin/gangsheet\\.spec\\.ts$',
    '<rootDir>/src/gangsheet/fixed-label-cli\\.spec\\.ts$',
    '<rootDir>/src/cpu/cpu-pool\\.spec\\.ts$',
    '<rootDir>/src/prints/print-layout-shapes\\.spec\\.ts$',
  ],
};
