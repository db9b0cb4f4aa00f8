import { isIP } from 'node:net';
import isEmail from 'validator/lib/isEmail';
import { z } from 'zod';
import { EMAIL_RULE } from '../common/email';

/**
 * Every environment variable and its rule; `loadConfig` (configuration.ts) is the one place
 * that reads process.env, through this schema. Every variable is listed in .env.example.
 * A bad value stops the process at start with a message naming the variable.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(p + ':')), {
      message: `must start with ${protocols.map((p) => p + '://').join(' or ')}`,
    });

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: url(['http', 'https']).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  DATABASE_LOGGING: bool.default(false),
  DB_POOL_MAX: z.coerce.number().int().min(2).max(200).default(10),
  DB_POOL_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  QUEUE_PREFIX: z.string().min(1).default('gangsheet'),
  PROCESS_JOBS: bool.default(true),
  API_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
  API_PROCESS_INDEX: z.coerce.number().int().min(0).max(63).optional(),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('GangSheet Studio <no-reply@gangsheet.studio>'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_EXPIRES_IN: z.string().regex(/^\d+[smhd]$/, 'must look like 7d, 12h or 3600s').default('7d'),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  ALLOWED_ORIGINS: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .refine((v) => v === undefined || parseTrustProxy(v) !== null, {
      message: 'must be false, a number of proxy hops, or a comma list of IPs/CIDRs/loopback/linklocal/uniquelocal',
    }),
  ADMIN_EMAIL: z
    .string()
    .refine((v) => isEmail(v, EMAIL_RULE), { message: 'Invalid email address' })
    .optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  CAPTCHA_PROVIDER: z.enum(['none', 'recaptcha', 'turnstile']).default('none'),
  CAPTCHA_SITE_KEY: z.string().optional(),
  CAPTCHA_SECRET: z.string().optional(),
  CAPTCHA_VERIFY_URL: url(['http', 'https']).optional(),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  VERIFY_TOKEN_TTL_HOURS: z.coerce.number().positive().default(48),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().positive().default(30),
  UPLOAD_MAX_FILE_MB: z.coerce.number().positive().default(50),
  UPLOAD_MAX_FILES: z.coerce.number().int().positive().default(50),
  // One limit for upload checks, previews and rendering (16384² was the engine's built-in limit).
  IMAGE_MAX_PIXELS: z.coerce.number().int().positive().default(16384 * 16384),
  IMAGE_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  // Each background step of an image (art bounds and ink, preview); slower → the image is Error.
  IMAGE_STEP_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  IMAGE_JOB_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  CPU_WORKERS: z.coerce.number().int().min(1).max(32).optional(),
  FRONTEND_DIST: z.string().optional(),
  QUEUE_LOCK_DURATION_MS: z.coerce.number().int().min(500).optional(),
  QUEUE_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).optional(),
  QUEUE_REPEAT_CHECK_SECONDS: z.coerce.number().min(0.1).default(60),
  PRINT_RETENTION_DAYS: z.coerce.number().positive().default(7),
  PRINT_RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  PRINT_JOB_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  PRINT_JOB_CONCURRENCY: z.coerce.number().int().min(1).max(16).optional(),
  PRINT_PREVIEW_TIME_LIMIT_MS: z.coerce.number().int().min(10).default(1000),
  PRINT_LAYOUT_TIME_LIMIT_MS: z.coerce.number().int().min(10).default(2000),
  PRINT_SHAPE_LAYOUT_TIME_LIMIT_MS: z.coerce.number().int().min(10).default(30000),
  PRINT_LAYOUT_THREADS: z.coerce.number().int().min(1).max(8).optional(),
  PRINT_CANCEL_POLL_MS: z.coerce.number().int().min(50).default(500),
  PRINT_MAX_RESUMES: z.coerce.number().int().min(0).max(20).default(3),
  PRINT_MAX_PIXELS: z.coerce.number().positive().default(4_000_000_000),
  PRINT_MIN_FREE_MB: z.coerce.number().min(0).default(1024),
  JOB_RECOVERY_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
  JOB_RECOVERY_GRACE_SECONDS: z.coerce.number().min(0).default(60),
  JOB_STALL_SECONDS: z.coerce.number().min(1).default(300),
  SHEET_MAX_WIDTH_IN: z.coerce.number().min(1).max(120).default(64),
  SHEET_MAX_LENGTH_IN: z.coerce.number().min(1).max(1000).default(400),
  SHEET_MAX_DPI: z.coerce.number().int().min(72).max(1200).default(600),
  PAYMENT_PROVIDER: z.enum(['paypal', 'test', 'none']).optional(),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  PAYPAL_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  PAYPAL_API_URL: url(['http', 'https']).optional(),
  PAYPAL_BRAND_NAME: z.string().min(1).max(127).default('GangSheet Studio'),
  PAYMENT_CURRENCY: z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code').default('USD'),
  PAYMENT_DISCOUNT_DAYS: z.coerce.number().min(0).default(30),
  BANK_NAME: z.string().optional(),
  BANK_ACCOUNT_NUMBER: z.string().optional(),
  BANK_IBAN: z.string().optional(),
  BANK_TRANSFER_EXPIRY_DAYS: z.coerce.number().int().min(0).default(30),
  // ---- shops (Etsy, WooCommerce) and their orders ----
  INTEGRATIONS_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ETSY_KEYSTRING: z.string().optional(),
  ETSY_SHARED_SECRET: z.string().optional(),
  ETSY_API_URL: url(['http', 'https']).default('https://api.etsy.com'),
  ETSY_CONNECT_URL: url(['http', 'https']).default('https://www.etsy.com/oauth/connect'),
  ORDER_SYNC_INTERVAL_MINUTES: z.coerce.number().min(0).default(15),
  /** Production batching: how often auto-batching sellers are evaluated (cut-offs are met within this). 0: off. */
  PRODUCTION_TICK_SECONDS: z.coerce.number().min(0).default(60),
  /** Browser tests only (refused with NODE_ENV=production): a file holding milliseconds added to production batching's clock. */
  E2E_PRODUCTION_CLOCK_FILE: z.string().min(1).optional(),
  ORDER_SYNC_FIRST_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  ORDER_SYNC_MAX_RETRY_WAIT_SECONDS: z.coerce.number().min(0).default(60),
  SHOP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  DESIGN_DOWNLOAD_MAX_MB: z.coerce.number().positive().optional(),
  DESIGN_DOWNLOAD_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  SHOPS_ALLOW_PRIVATE_URLS: bool.default(false),
  NOTIFICATION_RETENTION_DAYS: z.coerce.number().positive().default(90),
  NOTIFICATION_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  NOTIFICATION_EXPIRY_WARNING_HOURS: z.coerce.number().positive().default(48),
  PRINT_IMAGE_WAIT_SECONDS: z.coerce.number().min(1).default(600),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  API_KEY_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
  WEBHOOK_RETRY_WINDOW_SECONDS: z.coerce.number().min(1).default(86_400),
  WEBHOOK_BACKOFF_SECONDS: z.coerce.number().positive().default(30),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  // ---- where files live: the local folder (default) or an S3-compatible bucket ----
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_SIGNED_URL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
  STORAGE_CACHE_MB: z.coerce.number().int().min(64).default(2048),
  STORAGE_ORPHAN_MIN_AGE_HOURS: z.coerce.number().positive().default(24),
  STORAGE_ORPHAN_SWEEP_OBJECTS: z.coerce.number().int().positive().default(50_000),
  STORAGE_S3_BUCKET: z.string().min(3).optional(),
  STORAGE_S3_ENDPOINT: url(['http', 'https']).optional(),
  STORAGE_S3_PUBLIC_ENDPOINT: url(['http', 'https']).optional(),
  STORAGE_S3_REGION: z.string().min(1).default('us-east-1'),
  STORAGE_S3_PREFIX: z
    .string()
    .regex(/^([^/\\]+\/)+$/, 'must be folder names each ending in /, such as gangsheet/')
    .optional(),
  STORAGE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  STORAGE_S3_FORCE_PATH_STYLE: bool.optional(),
  STORAGE_S3_CHECKSUMS: z.enum(['when_required', 'when_supported']).default('when_required'),
  STORAGE_S3_SIGN_PAYLOADS: z.enum(['auto', 'true', 'false']).default('auto'),
  STORAGE_S3_PART_SIZE_MB: z.coerce.number().int().min(5).max(5120).default(8),
  STORAGE_S3_QUEUE_SIZE: z.coerce.number().int().min(1).max(16).default(2),
});

export type Env = z.infer<typeof envSchema>;

const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or "false" trusts nobody (X-Forwarded-* ignored, req.ip is the
 * peer); a number trusts that many hops; otherwise the addresses/subnets of the proxies.
 * "true" (trust everyone) is refused on purpose: any client could then pick its own IP.
 */
export function parseTrustProxy(v: string): false | number | string[] | null {
  const s = v.trim();
  if (s === '' || s === 'false') return false;
  if (/^\d+$/.test(s)) return Number(s);
  const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
  const ok = parts.every((p) => {
    if (TRUST_NAMES.has(p)) return true;
    const [addr, bits, ...rest] = p.split('/');
    if (rest.length || !isIP(addr)) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(addr) === 4 ? 32 : 128));
  });
  return ok && parts.length ? parts : null;
}
