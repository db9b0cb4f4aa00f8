/** Unit specs live next to the code (src/**\/*.spec.ts); API e2e specs in test/ run
 * against the real PostgreSQL and Redis (see test/utils/test-env.ts). */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  testTimeout: 60000,
  maxWorkers: 2,
};
