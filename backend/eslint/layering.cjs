/**
 * The `layering` ESLint plugin: the dependency direction and table ownership of
 * docs/architecture.md ("Module map and dependency direction"), checked on every backend
 * source file. Tested by src/layering.spec.ts.
 *
 * `layering/imports`:
 *   - the engine (src/gangsheet) imports nothing of the app, nor Nest or TypeORM;
 *   - the CLI (src/bin) imports only the engine (and config's invocation check);
 *   - common/ imports only config/, config/ only common/;
 *   - the platform (database, storage, queue, realtime, mail, cpu) imports only the platform,
 *     common/ and config/, never a feature;
 *   - only the composition root (files directly in src/) imports the composition root;
 *   - a feature imports another feature or the platform only through what it offers: its
 *     module, services, decorators, entities and DTOs, and the few files listed in PUBLIC.
 * `layering/tables`: one area reads and writes only the tables it owns (its entities', and
 * the trigger-kept or entity-less tables in EXTRA_TABLES), in SQL (a table named after FROM,
 * JOIN, UPDATE or INTO) or through TypeORM (another area's entity class handed to find,
 * update, getRepository, createQueryBuilder…, @InjectRepository or forFeature); another
 * area's data comes from that area's services or read model. Migrations (database/) and specs
 * are exempt.
 *
 * The few remaining exceptions are listed below, each with its reason; anything else fails.
 */
const fs = require('node:fs');
const path = require('node:path');

const SRC = path.resolve(__dirname, '../src');
const ENGINE = 'gangsheet';
const CLI = 'bin';
/** Folders every area may use freely. */
const KERNEL = new Set(['common', 'config']);
/** Infrastructure: features use it, it uses no feature. */
const PLATFORM = new Set(['database', 'storage', 'queue', 'realtime', 'mail', 'cpu']);

/** Files of an area other areas may import besides *.module, *.service, *.decorators, entities/ and dto/. */
const PUBLIC = {
  // the typed job map and the runner's interface
  queue: ['jobs', 'queue.types', 'queue.tokens'],
  // the typed map of socket events (shared with the frontend)
  realtime: ['events'],
  cpu: ['cpu-pool'],
  // the ObjectStore interface, its OBJECT_STORE token and errors (local folder or S3-compatible bucket)
  // and store-sink: a render's outputs streamed into the store from a CPU worker (the print engine)
  storage: ['object-store', 'store-sink'],
  database: ['data-source-options'],
  // the SQL other features compose to ask about prints (order links) without naming prints' tables
  prints: ['print-read-model'],
  // the guarded HTTP client (size limit, deadline, no private addresses) orders use for design downloads
  integrations: ['safe-http'],
  // the typed map of webhook events, for features that write their deliveries in their own transaction
  webhooks: ['webhook-events'],
  // which shop statuses close an order, for production's queue and counts
  orders: ['shop-status'],
};

/** Imports against the direction that remain, as `from>to` areas, with the reason. */
const IMPORT_EXCEPTIONS = {
  'realtime>session': 'the socket handshake is authenticated with the session cookie (SessionService)',
};

/** Tables without an entity of their own (trigger-kept counters, logs), by owning area. */
const EXTRA_TABLES = {
  print_counts: 'prints',
  image_library_counts: 'images',
  payment_events: 'payments',
  idempotency_keys: 'idempotency',
  job_outbox: 'queue',
};

/** Reads or writes of another area's tables (in SQL or through its entity class) that remain, by area and table, with the reason. */
const TABLE_EXCEPTIONS = {
  statistics: {
    image_library_counts: "the dashboard's printed-images figure (the images feature has no reader for it yet)",
    users: "the dashboard's used-credits figure (kept on the user row)",
  },
  orders: { integrations: "the orders list shows each order's shop in the same statement" },
  prints: {
    images: "the print page, the preview, draft edits and the job read their items' images (names, status, ink masks) with the items",
    sizes: "the print page, the preview, draft edits and the job read their items' sizes with the items",
    orders: 'a print item names its shop order line (one statement)',
    order_items: "a print item names its shop order line (one statement)",
    users: "processing re-reads the buyer's balance in its transaction; the job's mail needs the address; the admin's list checks the user exists",
  },
  auth: { users: "sign-in and the account tokens read and change the account row (password hash, status, e-mail)" },
  session: { users: "every request's session loads its account" },
  'api-keys': { users: "a bearer key authenticates as its account" },
  users: { api_keys: "deactivating an account revokes its API keys in the same transaction" },
  payments: { users: "the buyer's balance under the settlement's row lock, and each payment's user in the admin list" },
  credits: { users: 'credit balances are kept on the user row; credits is their only writer' },
  production: {
    orders: 'the production queue lists order items with their order (number, date, shop status) in one paged statement',
    order_items: "the queue reads the items and a batch takes them with orders → print's claim (claimed_at), in the batch's transaction",
    integrations: 'the queue names each item\'s shop in the same statement',
    images: "the queue resolves each item's design as orders → print does (imported image, else one named like the SKU) in SQL, so a large shop's queue stays one statement",
    sizes: "the queue resolves each item's size by name in the same statement",
    prints: 'a batch is a print: made with its items in the transaction that takes them, under the seller\'s lock (exactly once); a failed or cancelled batch is retired',
    print_items: "a batch's print items (one per order item) are written in the same transaction",
  },
};

/** The area (top folder under src/) of a file: null for the composition root (files directly in src/), undefined outside src/. */
function area(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

/** The area of an import's target: `../gangsheet` (a folder's index) is that folder's area. */
function targetArea(target) {
  const a = area(target);
  if (a !== null) return a;
  return fs.existsSync(target) && fs.statSync(target).isDirectory() ? path.basename(target) : null;
}

function offered(target, to) {
  const rel = path.relative(path.join(SRC, to), target).split(path.sep);
  const name = rel[rel.length - 1].replace(/\.(ts|js)$/, '');
  if (rel[0] === 'entities' || rel[0] === 'dto') return true;
  if (rel.length !== 1) return false;
  return name.endsWith('.module') || name.endsWith('.service') || name.endsWith('.decorators') || (PUBLIC[to] ?? []).includes(name);
}

/** Why importing `to` (area) from `from` (area) is against the direction, or null when it is fine. */
function importProblem(from, to, target, spec) {
  if (from === undefined || to === undefined || from === to) return null;
  if (from === ENGINE) return `the engine imports nothing of the app (${spec})`;
  if (from === CLI) return to === ENGINE || to === 'config' ? null : `the CLI uses only the engine and config (${spec})`;
  if (to === null) return from === null ? null : `only the composition root (src/*.ts) imports the composition root (${spec})`;
  if (from === null) return null;
  if (IMPORT_EXCEPTIONS[`${from}>${to}`]) return null;
  if (from === 'common') return to === 'config' ? null : `common/ imports no feature (${spec})`;
  if (from === 'config') return to === 'common' ? null : `config/ imports only common/ (${spec})`;
  if (KERNEL.has(to) || to === ENGINE) return null;
  if (PLATFORM.has(from) && !PLATFORM.has(to)) return `the platform (${from}/) imports no feature; register the feature's part in the composition root (${spec})`;
  return offered(target, to) ? null : `import ${to}/ only through its module, services, entities or DTOs, not ${spec}`;
}

let owners;
/** Entity class name → its table, from the same scan. */
const entityTables = new Map();
/** Table → owning area, from the entities' @Entity('name') and EXTRA_TABLES. */
function tableOwners() {
  if (owners) return owners;
  owners = new Map(Object.entries(EXTRA_TABLES));
  for (const dir of fs.readdirSync(SRC, { withFileTypes: true })) {
    const entities = path.join(SRC, dir.name, 'entities');
    if (!dir.isDirectory() || !fs.existsSync(entities)) continue;
    for (const f of fs.readdirSync(entities)) {
      const text = fs.readFileSync(path.join(entities, f), 'utf8');
      for (const m of text.matchAll(/@Entity\(\s*['"]([a-z_][a-z0-9_]*)['"][^)]*\)\s*export class (\w+)/g)) {
        owners.set(m[1], dir.name);
        entityTables.set(m[2], m[1]);
      }
    }
  }
  return owners;
}

/** TypeORM calls whose first argument is the entity they read or write (EntityManager, DataSource, query builders). */
const ORM_CALLS = new Set([
  'find', 'findOne', 'findBy', 'findOneBy', 'findOneOrFail', 'findOneByOrFail', 'findAndCount', 'findAndCountBy',
  'count', 'countBy', 'exists', 'existsBy', 'exist', 'sum', 'average', 'minimum', 'maximum',
  'insert', 'update', 'upsert', 'delete', 'softDelete', 'restore', 'save', 'remove', 'increment', 'decrement', 'create', 'merge', 'preload',
  'getRepository', 'createQueryBuilder', 'from', 'innerJoin', 'leftJoin', 'innerJoinAndSelect', 'leftJoinAndSelect',
]);

/** The tables an SQL text names after FROM, JOIN, UPDATE or INTO (upper-case keywords only, so prose does not count). */
function tablesIn(text) {
  return [...text.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_][a-z0-9_]*)\b/g)].map((m) => m[1]);
}

const plugin = {
  meta: { name: 'layering' },
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
            if (from === ENGINE && /^(@nestjs\/|typeorm$)/.test(spec)) report(`the engine does not depend on the app framework (${spec})`);
            return;
          }
          const target = path.resolve(path.dirname(file), spec);
          const why = importProblem(from, targetArea(target), target, spec);
          if (why) report(why);
        };
        return {
          ImportDeclaration: (n) => check(n, n.source.value),
          ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
          ExportAllDeclaration: (n) => check(n, n.source.value),
          ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
          TSImportType: (n) => {
            const arg = n.argument?.type === 'TSLiteralType' ? n.argument.literal : n.argument;
            if (arg?.type === 'Literal') check(n, arg.value);
          },
        };
      },
    },
    tables: {
      meta: { type: 'problem', schema: [], messages: { bad: '{{why}}' } },
      create(context) {
        const file = context.filename;
        const from = area(file);
        if (!from || from === 'database' || /\.spec\.ts$/.test(file)) return {};
        const refuse = (node, table, how) => {
          const owner = tableOwners().get(table);
          if (!owner || owner === from || TABLE_EXCEPTIONS[from]?.[table]) return;
          context.report({ node, messageId: 'bad', data: { why: `${from}/ ${how} ${owner}'s table ${table}: ask ${owner}/ (its service or read model) instead` } });
        };
        const check = (node, text) => {
          for (const table of tablesIn(text)) refuse(node, table, 'queries');
        };
        /** Local names of other areas' entity classes imported by this file → their tables. */
        const foreign = new Map();
        const entityArg = (node, arg, how) => {
          if (arg?.type === 'Identifier' && foreign.has(arg.name)) refuse(node, foreign.get(arg.name), how);
        };
        return {
          Literal: (n) => typeof n.value === 'string' && check(n, n.value),
          TemplateElement: (n) => check(n, n.value.cooked ?? n.value.raw),
          ImportDeclaration: (n) => {
            if (typeof n.source.value !== 'string' || !n.source.value.startsWith('.')) return;
            const target = path.resolve(path.dirname(file), n.source.value);
            const rel = path.relative(SRC, target).split(path.sep);
            if (rel[1] !== 'entities' || rel[0] === from) return;
            tableOwners();
            for (const sp of n.specifiers) {
              const table = sp.type === 'ImportSpecifier' ? entityTables.get(sp.imported.name ?? sp.imported.value) : undefined;
              if (table) foreign.set(sp.local.name, table);
            }
          },
          CallExpression: (n) => {
            const callee = n.callee;
            const name = callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : callee.type === 'Identifier' ? callee.name : null;
            if (name === 'InjectRepository' || (name && callee.type === 'MemberExpression' && ORM_CALLS.has(name))) entityArg(n, n.arguments[0], 'reads or writes');
            if (name === 'forFeature' && n.arguments[0]?.type === 'ArrayExpression') for (const el of n.arguments[0].elements) entityArg(n, el, 'registers');
          },
        };
      },
    },
  },
};

module.exports = { plugin, SRC, PLATFORM, KERNEL };
