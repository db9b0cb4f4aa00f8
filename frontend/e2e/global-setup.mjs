// Starts the real services once for the whole browser run (playwright.config.ts):
// SMTP capture, a fresh PostgreSQL database, the built backend serving the built UI on a
// free port. Tests find them through the E2E_* variables set here (workers inherit them).
// The returned function is the global teardown: it stops the backend, drops the database,
// deletes the Redis keys under the run's queue prefix and removes the data directory.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import Redis from "ioredis";
import { startMailbox } from "./mailbox.mjs";

const ROOT = resolve(new URL("../..", import.meta.url).pathname);
const ARTIFACTS = new URL("./artifacts/", import.meta.url).pathname;
const PG_URL = process.env.E2E_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const REDIS_URL = process.env.E2E_REDIS_URL ?? "redis://127.0.0.1:6379";

const freePort = () =>
  new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });

async function waitForHealth(url, backend, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (backend.exitCode !== null) throw new Error(`backend exited with ${backend.exitCode}; see e2e/artifacts/backend.log`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`backend not healthy after ${timeoutMs} ms; see e2e/artifacts/backend.log`);
}

export default async function globalSetup(config) {
  const chromium = config.projects[0].use.launchOptions?.executablePath;
  if (!existsSync(join(ROOT, "backend/dist/main.js"))) throw new Error("backend/dist/main.js missing: run `npm run build` at the repo root first");
  if (!existsSync(join(ROOT, "frontend/dist/index.html"))) throw new Error("frontend/dist missing: run `npm run build -w frontend` first");
  if (chromium && !existsSync(chromium)) throw new Error(`${chromium} missing: apt-get install -y chromium`);
  mkdirSync(ARTIFACTS, { recursive: true });

  const id = `gs_e2e_${process.pid}`;
  const cleanups = [];
  const teardown = async () => {
    while (cleanups.length) await cleanups.pop()().catch((err) => console.error("teardown:", err.message));
  };

  try {
    const mailbox = await startMailbox();
    cleanups.push(() => mailbox.close());

    const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${id}`);
    cleanups.push(async () => {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [id]);
      await admin.query(`DROP DATABASE IF EXISTS ${id}`);
      await admin.end();
    });

    cleanups.push(async () => {
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      // Queues and caches start with the prefix; rate-limit counters wrap it in a Redis hash tag.
      for (const pattern of [`${id}*`, `{${id}:*`]) {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== "0");
      }
      redis.disconnect();
    });

    const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

    const port = await freePort();
    const baseUrl = `http://localhost:${port}`;
    const adminCreds = { email: "admin@e2e.test", password: `Adm1n-${randomBytes(9).toString("base64url")}` };
    const log = createWriteStream(join(ARTIFACTS, "backend.log"));
    const backend = spawn(process.execPath, ["backend/dist/main.js"], {
      cwd: ROOT,
      env: {
        ...process.env,
        JWT_SECRET: randomBytes(32).toString("hex"),
        PORT: String(port),
        DATABASE_URL: `${PG_URL}/${id}`,
        REDIS_URL,
        QUEUE_PREFIX: id,
        SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
        DATA_DIR: dataDir,
        ADMIN_EMAIL: adminCreds.email,
        ADMIN_PASSWORD: adminCreds.password,
        APP_URL: baseUrl,
        // payments.spec.mjs pays by bank transfer (offered only where bank details are configured)
        BANK_NAME: "E2E Test Bank",
        BANK_ACCOUNT_NUMBER: "12345678",
        BANK_IBAN: "DE89370400440532013000",
        // shops.spec.mjs runs a fake WooCommerce store on 127.0.0.1
        SHOPS_ALLOW_PRIVATE_URLS: "true",
        // production-done.spec.mjs moves production batching's clock through this file (absent:
        // the real time), and a short tick lets a passed cut-off batch within seconds
        E2E_PRODUCTION_CLOCK_FILE: join(dataDir, "production-clock-offset-ms"),
        PRODUCTION_TICK_SECONDS: "3",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    backend.stdout.pipe(log);
    backend.stderr.pipe(log);
    cleanups.push(
      () =>
        new Promise((res) => {
          if (backend.exitCode !== null) return res();
          backend.once("exit", res);
          backend.kill("SIGTERM");
          setTimeout(() => backend.kill("SIGKILL"), 5000).unref();
        }),
    );
    await waitForHealth(baseUrl, backend);

    Object.assign(process.env, {
      E2E_BASE_URL: baseUrl,
      E2E_MAILBOX_URL: mailbox.url,
      E2E_ADMIN_EMAIL: adminCreds.email,
      E2E_ADMIN_PASSWORD: adminCreds.password,
      E2E_REDIS_URL: REDIS_URL,
      E2E_QUEUE_PREFIX: id,
      E2E_PRODUCTION_CLOCK_FILE: join(dataDir, "production-clock-offset-ms"),
    });
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
