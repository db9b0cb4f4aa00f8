import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Env, envSchema, parseTrustProxy } from './env.schema';

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  appUrl: string;
  allowedOrigins: string[];
  /** TRUST_PROXY: which peers may set X-Forwarded-For/Proto/Host (a hop count or addresses). false = none. */
  trustProxy: false | number | string[];
  dataDir: string;
  filesDir: string;
  outboxDir: string;
  frontendDist: string;
  /**
   * PostgreSQL pool: `poolMax` connections; a request waits at most `acquireTimeoutMs` for one
   * (then fails instead of queueing forever); the server ends a statement after
   * `statementTimeoutMs` and a session idle inside a transaction after `idleInTransactionTimeoutMs`.
   */
  database: {
    url?: string;
    pgliteDir: string;
    logging: boolean;
    poolMax: number;
    acquireTimeoutMs: number;
    statementTimeoutMs: number;
    idleInTransactionTimeoutMs: number;
  };
  /**
   * lockDurationMs / stalledIntervalMs: Bull's stalled-job timing (Bull defaults when unset);
   * repeatCheckMs: how often the repeating jobs are registered again (Redis may come back empty).
   */
  redis: { url?: string; prefix: string; lockDurationMs?: number; stalledIntervalMs?: number; repeatCheckMs: number };
  /** false in the API when dedicated workers do the jobs (scale-out). */
  processJobs: boolean;
  /** API processes of this node sharing its port (main.ts, cluster.ts); 1 without PostgreSQL and Redis. */
  apiProcesses: number;
  /** Set by the node's primary in each API process it forks (cluster.ts): 0 for the first. */
  apiProcessIndex?: number;
  mail: { smtpUrl?: string; from: string };
  auth: {
    jwtSecret: string;
    jwtExpiresIn: string;
    cookieSecure: 'auto' | boolean;
    /** How long a node may reuse a checked session (PostgreSQL mode only; 0: check every request). */
    sessionCacheMs: number;
    verifyTokenTtlMs: number;
    resetTokenTtlMs: number;
    rateLimit: { windowMs: number; perIp: number; perAccount: number };
  };
  admin: { email?: string; password?: string };
  captcha: { provider: 'none' | 'recaptcha' | 'turnstile'; siteKey?: string; secret?: string; verifyUrl: string };
  /** maxPixels: the one pixel limit of uploads, inspection, previews and rendering. checkTimeoutMs bounds one file's checks. */
  uploads: { maxFileBytes: number; maxFiles: number; maxPixels: number; checkTimeoutMs: number };
  /** The image library's background job: previews at once per process, and each step's time limit. */
  images: { jobConcurrency: number; stepTimeoutMs: number };
  /**
   * Child processes doing the CPU-heavy work (image checks, previews, layout, rendering) off
   * the event loop; workerEnv is the whole environment they start with (see cpuWorkerEnv).
   */
  cpu: { workers: number; workerEnv: NodeJS.ProcessEnv };
  prints: {
    /** Sheet files of Completed prints are deleted this long after printedAt. */
    retentionDays: number;
    retentionIntervalMs: number;
    jobAttempts: number;
    jobConcurrency: number;
    /** Layout search budget of the live preview and of the processing job. */
    previewTimeLimitMs: number;
    layoutTimeLimitMs: number;
    /** Most a "shape" print's layout may search (it gets `layoutBudget`, see print-budget.ts). */
    shapeLayoutTimeLimitMs: number;
    /** Threads one true-shape layout may use (nest.ts races them on its compaction); default min(2, cores). */
    layoutThreads: number;
    /** How often a running job checks whether its print was cancelled from another process. */
    cancelPollMs: number;
    /** How often the recovery sweep may restart an attempt whose job was lost before it is refunded. */
    maxResumes: number;
    /** Most pixels one print may render (all sheets), checked before charging and after layout. */
    maxPixels: number;
    /** Free space DATA_DIR must keep beyond what a print will write. */
    minFreeBytes: number;
    /** How long a processing job waits for its images' inspection before failing the print. */
    imageWaitMs: number;
  };
  /**
   * The recovery sweep (lost jobs, stuck prints and images, leftover run folders). A running
   * print job writes a heartbeat (the print's updated_at) every heartbeatMs; one without a
   * heartbeat for stallMs is lost, whatever the queue says.
   */
  recovery: { intervalMs: number; graceMs: number; stallMs: number; heartbeatMs: number };
  /** Upper bounds of sheet settings (the DTO's absolute limits are wider). */
  sheetLimits: { maxWidth: number; maxLength: number; maxDpi: number };
  /**
   * Buying credits. provider: PayPal Orders v2 when its keys are set, else the built-in test
   * checkout (never chosen by default with NODE_ENV=production: there it is 'none').
   */
  payments: {
    provider: 'paypal' | 'test' | 'none';
    currency: string;
    /** Days after sign-up during which packages sell at the discounted price. */
    discountDays: number;
    paypal: { clientId: string; clientSecret: string; webhookId: string; apiUrl: string; brandName: string };
    /** `expiryDays`: a bank transfer still unpaid this many days after it was started is cancelled (0: never). */
    bank: { name: string; accountNumber: string; iban: string; expiryDays: number };
  };
  /**
   * Shop integrations. `secretKey` encrypts their secrets at rest. `syncIntervalMs` 0 turns
   * the scheduled sync off. `allowPrivateUrls` lets shop base URLs and design downloads reach
   * http, loopback and private addresses (local fakes in tests only).
   */
  shops: {
    secretKey: string;
    etsy: { keystring?: string; sharedSecret?: string; apiUrl: string; connectUrl: string };
    syncIntervalMs: number;
    /** How often production batching evaluates the sellers with automatic batching (0: never). */
    productionTickMs: number;
    /** Browser tests only: the file whose number (ms) moves production batching's clock (production/clock.ts). */
    e2eClockFile?: string;
    firstSyncDays: number;
    maxRetryWaitMs: number;
    requestTimeoutMs: number;
    designMaxBytes: number;
    designTimeoutMs: number;
    allowPrivateUrls: boolean;
  };
  /**
   * The bell: notifications older than `retentionDays` are pruned by a sweep every
   * `sweepIntervalMs`, which also warns `expiryWarningHours` before a print's files are deleted.
   */
  notifications: { retentionDays: number; sweepIntervalMs: number; expiryWarningHours: number };
  /** The public API: requests per API key per window, how long an Idempotency-Key is remembered. */
  api: { keyRateLimit: number; keyRateWindowMs: number; idempotencyTtlMs: number };
  /**
   * Webhook deliveries: retried with exponential backoff from `backoffMs` while younger than
   * `retryWindowMs`; `allowPrivate` lets endpoints on private/loopback addresses (tests only).
   */
  webhooks: { retryWindowMs: number; backoffMs: number; timeoutMs: number; allowPrivate: boolean };
  /**
   * Where files live: `local` is the folder filesDir; `s3` an S3-compatible bucket (see
   * S3StorageConfig). Downloads from a bucket are signed URLs valid for `signedUrlSeconds`.
   * With a bucket, the files a process decodes (designs to render or inspect) are copied into
   * `cacheDir`, kept to about `cacheBytes`. The orphan sweep removes stored objects no row
   * refers to once they are older than `orphanMinAgeMs` (writes in progress are younger),
   * judging at most `orphanSweepObjects` stored objects per run.
   */
  storage: {
    driver: 'local' | 's3';
    signedUrlSeconds: number;
    cacheDir: string;
    cacheBytes: number;
    orphanMinAgeMs: number;
    orphanSweepObjects: number;
    s3?: S3StorageConfig;
  };
}

/** The S3-compatible bucket of STORAGE_DRIVER=s3 (STORAGE_S3_* variables). */
export interface S3StorageConfig {
  /** Empty for AWS itself; the gateway's URL otherwise (Ceph RGW, MinIO, R2, ...). */
  endpoint?: string;
  /** Where browsers reach the store, when that differs from `endpoint` (signed URLs only). */
  publicEndpoint?: string;
  region: string;
  bucket: string;
  /** Prepended to every key, so several installs (or test runs) can share a bucket. */
  prefix: string;
  /** Both or neither; without them the SDK's own chain (AWS_* variables, instance roles) is used. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (most self-hosted gateways). */
  forcePathStyle: boolean;
  /**
   * when_required: the SDK adds checksums only where S3 demands them (the widest
   * compatibility: some S3-compatible servers refuse the SDK's default checksums);
   * when_supported: CRC32 on every upload, checked on every download.
   */
  checksums: 'when_required' | 'when_supported';
  /**
   * Whether uploads sign their bodies' SHA-256: `auto` does over plain HTTP and not over HTTPS
   * (UNSIGNED-PAYLOAD, TLS protecting the bytes); `true`/`false` always/never. Default `auto`.
   */
  signPayloads?: 'auto' | 'true' | 'false';
  /** Multipart part size (at least 5 MiB); an upload holds at most `queueSize` + 1 parts in memory. */
  partSizeBytes: number;
  queueSize: number;
}

export class ConfigError extends Error {}

const CAPTCHA_VERIFY_URLS = {
  none: '',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
};

/** A JWT secret that survives restarts on the embedded default without any set-up. */
function persistedSecret(dataDir: string, fileName = '.jwt-secret'): string {
  const file = join(dataDir, fileName);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Most MB of one of V8's two young-generation halves in a CPU worker (see cpuWorkerEnv). */
export const CPU_WORKER_SEMI_SPACE_MB = 8;

/**
 * Environment of the CPU workers: the app's own, with two malloc arenas and a young
 * generation of at most 2 × 8 MB. glibc gives every thread that allocates its own arena and
 * keeps what was freed in it; libvips' threads resampling large designs then leave a render's
 * process much larger than it needs to be. Two arenas keep the peak of a render near its
 * working set (docs/gangsheet.md, "Print files"). V8 doubles the young generation (to 2 × 16
 * MB) when many objects survive a collection, as they do while a render streams into a bucket;
 * a Buffer's memory is freed only when its object is collected, so the bigger young generation
 * held the written chunks longer: 20 MB more external memory than the same render into the
 * local folder, whose young generation stays at 2 × 8 MB. The layout search spends 0.2 % more
 * of its time collecting with the cap (docs/benchmarks/operations-log.md). An operator's own
 * MALLOC_ARENA_MAX and --max-semi-space-size win.
 */
export function cpuWorkerEnv(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const nodeOptions = source.NODE_OPTIONS ?? '';
  return {
    ...source,
    MALLOC_ARENA_MAX: source.MALLOC_ARENA_MAX ?? '2',
    NODE_OPTIONS: /--max-semi-space-size\b/.test(nodeOptions) ? nodeOptions : `${nodeOptions} --max-semi-space-size=${CPU_WORKER_SEMI_SPACE_MB}`.trim(),
  };
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings in .env files mean "not set".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
  }
  if (e.NODE_ENV === 'production' && e.E2E_PRODUCTION_CLOCK_FILE) {
    throw new ConfigError('Invalid configuration:\n  E2E_PRODUCTION_CLOCK_FILE: browser tests only, refused when NODE_ENV=production');
  }
  if (e.CAPTCHA_PROVIDER !== 'none' && (!e.CAPTCHA_SITE_KEY || !e.CAPTCHA_SECRET)) {
    throw new ConfigError(
      `Invalid configuration:\n  CAPTCHA_SITE_KEY, CAPTCHA_SECRET: required when CAPTCHA_PROVIDER=${e.CAPTCHA_PROVIDER}`,
    );
  }
  if ((e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) || (!e.ADMIN_EMAIL && e.ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL, ADMIN_PASSWORD: set both or neither');
  }
  // Prints at once per node: as many as the cores a print's layout uses (two), each then on a
  // core of its own, plus one slot that the sellers already running cannot take (the group
  // cap is one less), so a newcomer's print starts at once.
  const printJobs = e.PRINT_JOB_CONCURRENCY ?? Math.min(2, availableParallelism()) + 1;
  const paypalKeys = !!(e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET);
  const paymentProvider = e.PAYMENT_PROVIDER ?? (paypalKeys ? 'paypal' : e.NODE_ENV === 'production' ? 'none' : 'test');
  if (paymentProvider === 'paypal' && (!paypalKeys || !e.PAYPAL_WEBHOOK_ID)) {
    throw new ConfigError(
      'Invalid configuration:\n  PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID: required when PAYMENT_PROVIDER=paypal',
    );
  }
  if (e.STORAGE_DRIVER === 's3' && !e.STORAGE_S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  STORAGE_S3_BUCKET: required when STORAGE_DRIVER=s3');
  }
  if (!e.STORAGE_S3_ACCESS_KEY_ID !== !e.STORAGE_S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Invalid configuration:\n  STORAGE_S3_ACCESS_KEY_ID, STORAGE_S3_SECRET_ACCESS_KEY: set both or neither');
  }
  // The embedded database and the in-process queue live in one process; with PostgreSQL and
  // Redis a production node uses its cores (at most four; they share the node's DB_POOL_MAX).
  const shared = !!(e.DATABASE_URL && e.REDIS_URL);
  if (e.API_PROCESSES && e.API_PROCESSES > 1 && !shared) {
    throw new ConfigError('Invalid configuration:\n  API_PROCESSES: above 1 needs DATABASE_URL and REDIS_URL (the embedded database and in-process jobs belong to one process)');
  }
  const apiProcesses = e.API_PROCESSES ?? (shared && e.NODE_ENV === 'production' ? Math.min(4, availableParallelism()) : 1);
  const dataDir = resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const origins = new Set([new URL(appUrl).origin]);
  for (const o of (e.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    origins.add(new URL(o).origin);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    allowedOrigins: [...origins],
    trustProxy: parseTrustProxy(e.TRUST_PROXY ?? '') ?? false,
    dataDir,
    filesDir: join(dataDir, 'files'),
    outboxDir: join(dataDir, 'outbox'),
    frontendDist: resolve(e.FRONTEND_DIST ?? join(__dirname, '..', '..', '..', 'frontend', 'dist')),
    database: {
      url: e.DATABASE_URL,
      pgliteDir: join(dataDir, 'db'),
      logging: e.DATABASE_LOGGING,
      poolMax: e.DB_POOL_MAX,
      acquireTimeoutMs: e.DB_POOL_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    redis: {
      url: e.REDIS_URL,
      prefix: e.QUEUE_PREFIX,
      lockDurationMs: e.QUEUE_LOCK_DURATION_MS,
      stalledIntervalMs: e.QUEUE_STALLED_INTERVAL_MS,
      repeatCheckMs: e.QUEUE_REPEAT_CHECK_SECONDS * 1000,
    },
    processJobs: e.PROCESS_JOBS,
    apiProcesses,
    apiProcessIndex: e.API_PROCESS_INDEX,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    auth: {
      jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
      jwtExpiresIn: e.JWT_EXPIRES_IN,
      cookieSecure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true',
      sessionCacheMs: e.SESSION_CACHE_MS,
      verifyTokenTtlMs: e.VERIFY_TOKEN_TTL_HOURS * 3600_000,
      resetTokenTtlMs: e.RESET_TOKEN_TTL_MINUTES * 60_000,
      rateLimit: {
        windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000,
        perIp: e.RATE_LIMIT_PER_IP,
        perAccount: e.RATE_LIMIT_PER_ACCOUNT,
      },
    },
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    captcha: {
      provider: e.CAPTCHA_PROVIDER,
      siteKey: e.CAPTCHA_SITE_KEY,
      secret: e.CAPTCHA_SECRET,
      verifyUrl: e.CAPTCHA_VERIFY_URL ?? CAPTCHA_VERIFY_URLS[e.CAPTCHA_PROVIDER],
    },
    uploads: {
      maxFileBytes: Math.round(e.UPLOAD_MAX_FILE_MB * 1024 * 1024),
      maxFiles: e.UPLOAD_MAX_FILES,
      maxPixels: e.IMAGE_MAX_PIXELS,
      checkTimeoutMs: e.IMAGE_CHECK_TIMEOUT_MS,
    },
    images: { jobConcurrency: e.IMAGE_JOB_CONCURRENCY, stepTimeoutMs: e.IMAGE_STEP_TIMEOUT_MS },
    // one per print job and image job that may run at once, so neither waits for the other's
    // worker (a slow image holds one for up to IMAGE_STEP_TIMEOUT_MS); started when needed
    cpu: { workers: e.CPU_WORKERS ?? printJobs + e.IMAGE_JOB_CONCURRENCY, workerEnv: cpuWorkerEnv(source) },
    prints: {
      retentionDays: e.PRINT_RETENTION_DAYS,
      retentionIntervalMs: e.PRINT_RETENTION_INTERVAL_SECONDS * 1000,
      jobAttempts: e.PRINT_JOB_ATTEMPTS,
      jobConcurrency: printJobs,
      previewTimeLimitMs: e.PRINT_PREVIEW_TIME_LIMIT_MS,
      layoutTimeLimitMs: e.PRINT_LAYOUT_TIME_LIMIT_MS,
      shapeLayoutTimeLimitMs: Math.max(e.PRINT_LAYOUT_TIME_LIMIT_MS, e.PRINT_SHAPE_LAYOUT_TIME_LIMIT_MS),
      layoutThreads: e.PRINT_LAYOUT_THREADS ?? Math.min(2, availableParallelism()),
      cancelPollMs: e.PRINT_CANCEL_POLL_MS,
      maxResumes: e.PRINT_MAX_RESUMES,
      maxPixels: e.PRINT_MAX_PIXELS,
      minFreeBytes: Math.round(e.PRINT_MIN_FREE_MB * 1024 * 1024),
      imageWaitMs: e.PRINT_IMAGE_WAIT_SECONDS * 1000,
    },
    recovery: {
      intervalMs: e.JOB_RECOVERY_INTERVAL_SECONDS * 1000,
      graceMs: e.JOB_RECOVERY_GRACE_SECONDS * 1000,
      stallMs: e.JOB_STALL_SECONDS * 1000,
      heartbeatMs: Math.min(30_000, (e.JOB_STALL_SECONDS * 1000) / 5),
    },
    sheetLimits: { maxWidth: e.SHEET_MAX_WIDTH_IN, maxLength: e.SHEET_MAX_LENGTH_IN, maxDpi: e.SHEET_MAX_DPI },
    payments: {
      provider: paymentProvider,
      currency: e.PAYMENT_CURRENCY,
      discountDays: e.PAYMENT_DISCOUNT_DAYS,
      paypal: {
        clientId: e.PAYPAL_CLIENT_ID ?? '',
        clientSecret: e.PAYPAL_CLIENT_SECRET ?? '',
        webhookId: e.PAYPAL_WEBHOOK_ID ?? '',
        apiUrl: (e.PAYPAL_API_URL ?? (e.PAYPAL_MODE === 'live' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com')).replace(/\/$/, ''),
        brandName: e.PAYPAL_BRAND_NAME,
      },
      bank: { name: e.BANK_NAME ?? '', accountNumber: e.BANK_ACCOUNT_NUMBER ?? '', iban: e.BANK_IBAN ?? '', expiryDays: e.BANK_TRANSFER_EXPIRY_DAYS },
    },
    shops: {
      secretKey: e.INTEGRATIONS_SECRET_KEY ?? persistedSecret(dataDir, '.integrations-key'),
      etsy: { keystring: e.ETSY_KEYSTRING, sharedSecret: e.ETSY_SHARED_SECRET, apiUrl: e.ETSY_API_URL.replace(/\/$/, ''), connectUrl: e.ETSY_CONNECT_URL },
      syncIntervalMs: Math.round(e.ORDER_SYNC_INTERVAL_MINUTES * 60_000),
      productionTickMs: Math.round(e.PRODUCTION_TICK_SECONDS * 1000),
      e2eClockFile: e.E2E_PRODUCTION_CLOCK_FILE,
      firstSyncDays: e.ORDER_SYNC_FIRST_DAYS,
      maxRetryWaitMs: Math.round(e.ORDER_SYNC_MAX_RETRY_WAIT_SECONDS * 1000),
      requestTimeoutMs: e.SHOP_REQUEST_TIMEOUT_MS,
      designMaxBytes: Math.round((e.DESIGN_DOWNLOAD_MAX_MB ?? e.UPLOAD_MAX_FILE_MB) * 1024 * 1024),
      designTimeoutMs: e.DESIGN_DOWNLOAD_TIMEOUT_MS,
      allowPrivateUrls: e.SHOPS_ALLOW_PRIVATE_URLS,
    },
    notifications: {
      retentionDays: e.NOTIFICATION_RETENTION_DAYS,
      sweepIntervalMs: e.NOTIFICATION_SWEEP_INTERVAL_SECONDS * 1000,
      expiryWarningHours: e.NOTIFICATION_EXPIRY_WARNING_HOURS,
    },
    api: {
      keyRateLimit: e.API_KEY_RATE_LIMIT,
      keyRateWindowMs: e.API_KEY_RATE_WINDOW_SECONDS * 1000,
      idempotencyTtlMs: e.IDEMPOTENCY_TTL_HOURS * 3600_000,
    },
    webhooks: {
      retryWindowMs: e.WEBHOOK_RETRY_WINDOW_SECONDS * 1000,
      backoffMs: e.WEBHOOK_BACKOFF_SECONDS * 1000,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    },
    storage: {
      driver: e.STORAGE_DRIVER,
      signedUrlSeconds: e.STORAGE_SIGNED_URL_SECONDS,
      cacheDir: join(dataDir, 'cache', 'objects'),
      cacheBytes: e.STORAGE_CACHE_MB * 1024 * 1024,
      orphanMinAgeMs: e.STORAGE_ORPHAN_MIN_AGE_HOURS * 3_600_000,
      orphanSweepObjects: e.STORAGE_ORPHAN_SWEEP_OBJECTS,
      s3:
        e.STORAGE_DRIVER === 's3'
          ? {
              endpoint: e.STORAGE_S3_ENDPOINT,
              publicEndpoint: e.STORAGE_S3_PUBLIC_ENDPOINT,
              region: e.STORAGE_S3_REGION,
              bucket: e.STORAGE_S3_BUCKET!,
              prefix: e.STORAGE_S3_PREFIX ?? '',
              accessKeyId: e.STORAGE_S3_ACCESS_KEY_ID,
              secretAccessKey: e.STORAGE_S3_SECRET_ACCESS_KEY,
              // Self-hosted gateways rarely have a wildcard DNS name for virtual-hosted buckets.
              forcePathStyle: e.STORAGE_S3_FORCE_PATH_STYLE ?? !!e.STORAGE_S3_ENDPOINT,
              checksums: e.STORAGE_S3_CHECKSUMS,
              signPayloads: e.STORAGE_S3_SIGN_PAYLOADS,
              partSizeBytes: e.STORAGE_S3_PART_SIZE_MB * 1024 * 1024,
              queueSize: e.STORAGE_S3_QUEUE_SIZE,
            }
          : undefined,
    },
  };
}
