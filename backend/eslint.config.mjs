// @ts-check
/**
 * Lint for the backend (runs in `npm test` before jest). Besides typescript-eslint's
 * recommended rules, the `layering` plugin (eslint/layering.cjs) encodes the dependency
 * direction and table ownership of docs/architecture.md: `layering/imports` (the engine,
 * the CLI, common/, the platform and features each import only what they may) and
 * `layering/tables` (SQL names only the tables its own area owns).
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layeringPlugin from './eslint/layering.cjs';

const layering = layeringPlugin.plugin;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/cpu/ts-worker.js', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { layering },
    rules: {
      'layering/imports': 'error',
      'layering/tables': 'error',
      // Nest and TypeORM hand us untyped values (errors, raw query rows); `any` there is deliberate.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
