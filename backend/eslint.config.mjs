// @ts-check
/**
 * Lint for the backend (runs in `npm test` before jest). Besides typescript-eslint's
 * recommended rules, `layering/imports` encodes the dependency direction of
 * docs/architecture.md:
 *   - the engine (src/gangsheet) imports nothing of the app, nor Nest or TypeORM;
 *   - the CLI (src/bin) imports only the engine (and config's invocation check);
 *   - common/ imports no feature;
 *   - a feature imports another feature only through what that feature offers: its module,
 *     its services, its decorators, its entities and DTOs, and the few files listed in
 *     PUBLIC below.
 */
import js from '@eslint/js';
import path from 'node:path';
import tseslint from 'typescript-eslint';

const SRC = path.resolve(import.meta.dirname, 'src');
/** Folders under src/ every feature may use freely. */
const SHARED = new Set(['common', 'config', 'gangsheet']);
/** Files of a feature other features may import besides *.module, *.service, *.decorators, entities/ and dto/. */
const PUBLIC = {
  // the typed job map and the runner's interface
  queue: ['jobs', 'queue.types', 'queue.tokens'],
  // the typed map of socket events (shared with the frontend)
  realtime: ['events'],
  cpu: ['cpu-pool'],
  database: ['data-source-options'],
  // the CPU-bound functions a feature hands to the worker pool (cpu/cpu-tasks.ts)
  images: ['image-decode'],
  // the SQL other features compose to ask about prints (order links) without reading prints' tables
  prints: ['engine.adapter', 'print-read-model'],
  // the guarded HTTP client (size limit, deadline, no private addresses) orders use for design downloads
  integrations: ['safe-http'],
  // the typed map of webhook events, for features that write their deliveries in their own transaction
  webhooks: ['webhook-events'],
};

/** The top folder under src/ of a file, or null for files directly in src/ (main.ts, app.module.ts: the composition root). */
function area(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

function offered(feature, target) {
  const rel = path.relative(path.join(SRC, feature), target).split(path.sep);
  const name = rel[rel.length - 1].replace(/\.(ts|js)$/, '');
  if (rel[0] === 'entities' || rel[0] === 'dto') return true;
  if (rel.length !== 1) return false;
  return name.endsWith('.module') || name.endsWith('.service') || name.endsWith('.decorators') || (PUBLIC[feature] ?? []).includes(name);
}

const layering = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [], messages: { bad: '{{why}}' } },
      create(context) {
        const file = context.filename;
        const from = area(file);
        const check = (node, spec) => {
          if (typeof spec !== 'string') return;
          const report = (why) => context.report({ node, messageId: 'bad', data: { why } });
          if (!spec.startsWith('.')) {
            if (from === 'gangsheet' && /^(@nestjs\/|typeorm$)/.test(spec)) report(`the engine does not depend on the app framework (${spec})`);
            return;
          }
          const target = path.resolve(path.dirname(file), spec);
          const to = area(target);
          if (from === undefined || to === undefined || from === to) return;
          if (from === 'gangsheet') return report(`the engine imports nothing of the app (${spec})`);
          if (from === 'bin' && to !== 'gangsheet' && to !== 'config') return report(`the CLI uses only the engine and config (${spec})`);
          if (from === 'common' && to !== 'config') return report(`common/ imports no feature (${spec})`);
          if (from === null || to === null || SHARED.has(to)) return;
          if (!offered(to, target)) report(`import ${to}/ only through its module, services, entities or DTOs, not ${spec}`);
        };
        return {
          ImportDeclaration: (n) => check(n, n.source.value),
          ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
          ExportAllDeclaration: (n) => check(n, n.source.value),
          ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/cpu/ts-worker.js', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { layering },
    rules: {
      'layering/imports': 'error',
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
