// Playwright fixtures and helpers shared by every spec in this folder.
//
//   import { test } from "./fixtures.mjs";
//   test("sizes: add a size", async ({ page, baseUrl, mailbox, adminLogin, shot }) => { ... });
//
// global-setup.mjs starts the services once; each test gets a fresh browser context (own
// cookies and storage) from Playwright, plus the fixtures below.
/* eslint-disable no-empty-pattern -- Playwright reads what a fixture needs from its destructured first parameter */
import { test as base } from "@playwright/test";
import { mailboxClient } from "./mailbox.mjs";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts (its global setup starts the app)`);
  return value;
};

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** Unique values so specs never collide with each other or with earlier runs. */
export const unique = (prefix = "u") => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const test = base.extend({
  baseURL: async ({}, use) => use(env("E2E_BASE_URL")),
  /** The app's origin, e.g. http://localhost:41234 (APP_URL of the backend). */
  baseUrl: async ({}, use) => use(env("E2E_BASE_URL")),
  /** The captured mail: `await count()`, `waitFor(to, { since, subject, timeout })`, `link(mail, pathPrefix)`. */
  mailbox: async ({}, use) => use(mailboxClient(env("E2E_MAILBOX_URL"))),
  /** The admin's credentials (ADMIN_EMAIL/ADMIN_PASSWORD of the backend). */
  admin: async ({}, use) => use({ email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD") }),
  /** The backend's Bull queues: connect with `new Bull(name, redisUrl, { prefix })`. */
  queue: async ({}, use) => use({ redisUrl: env("E2E_REDIS_URL"), prefix: env("E2E_QUEUE_PREFIX") }),

  /** An uncaught error in the page fails the test, even when every step passed. */
  page: async ({ page }, use) => {
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await use(page);
    if (errors.length) throw new Error(`Uncaught errors in the page:\n${errors.join("\n")}`);
  },

  /** Saves a screenshot of the page into the test's output folder and attaches it to the report. */
  shot: async ({ page }, use, testInfo) => {
    await use(async (label, opts = {}) => {
      const path = testInfo.outputPath(`${slug(label)}.png`);
      await page.screenshot({ path, fullPage: opts.fullPage ?? false });
      await testInfo.attach(label, { path, contentType: "image/png" });
      return path;
    });
  },

  /** Signs in through the login page and waits for the dashboard. */
  login: async ({ page }, use) => {
    await use(async (identifier, password) => {
      await page.goto("/auth/signin");
      await page.getByLabel("Email or Username").fill(identifier);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL("**/dashboard");
    });
  },
  adminLogin: async ({ login, admin }, use) => use(() => login(admin.email, admin.password)),

  /** Calls the API directly (same cookie jar as the page) to set up data quickly: `{ status, body }`. */
  api: async ({ context, baseUrl }, use) => {
    await use(async (method, path, body) => {
      const res = await context.request.fetch(`${baseUrl}/api${path}`, {
        method,
        headers: { "X-Requested-With": "XMLHttpRequest", Origin: baseUrl },
        data: body,
      });
      const json = await res.json().catch(() => null);
      return { status: res.status(), body: json };
    });
  },

  /** Registers and verifies a user through the API and the captured mail; returns its credentials. */
  createUser: async ({ api, mailbox }, use) => {
    await use(async (overrides = {}) => {
      const username = unique("user");
      const user = { firstName: "Test", lastName: "Person", username, email: `${username}@e2e.test`, password: "Secret-123", ...overrides };
      const since = await mailbox.count();
      const res = await api("POST", "/register", user);
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
      const mail = await mailbox.waitFor(user.email, { since });
      const token = new URL(mailbox.link(mail, "/verify")).searchParams.get("token");
      const verified = await api("GET", `/verify?token=${encodeURIComponent(token)}`);
      if (verified.status !== 200) throw new Error(`verify failed: ${verified.status}`);
      return user;
    });
  },
});

/** Waits until an antd toast containing `text` is visible. */
export async function expectToast(page, text) {
  await page.locator(".ant-notification-notice").filter({ hasText: text }).first().waitFor({ state: "visible" });
}

/**
 * Closes the toasts on screen, as a seller does before reaching what the pile covers
 * (a pointer over the pile expands it and holds it open).
 */
export async function dismissToasts(page) {
  for (const close of await page.locator(".ant-notification-notice-close").all()) await close.click().catch(() => {});
  await page.locator(".ant-notification-notice").first().waitFor({ state: "detached" });
}

/** Waits for the tab title (pages set it after they render). */
export async function expectTitle(page, title) {
  await page.waitForFunction((t) => document.title === t, title, { timeout: 5000 }).catch(async () => {
    throw new Error(`expected title "${title}", got "${await page.title()}"`);
  });
}

/** Polls `fn` until it returns something truthy (and returns that), or fails after `timeout` ms. */
export async function waitFor(fn, { timeout = 30_000, every = 300, what = "condition" } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Lets the live layout's debounce and refetch run. */
export const settle = (page) => page.waitForTimeout(500);

/** Gives `user` a balance of `credits` as the admin would (the API session ends logged out). */
export async function grantCredits({ api, admin }, user, credits) {
  const asAdmin = await api("POST", "/login", { email: admin.email, password: admin.password });
  if (asAdmin.status >= 300) throw new Error(`admin login ${asAdmin.status}`);
  const found = await api("GET", `/users?search=${user.username}`);
  const userId = found.body.data.find((u) => u.username === user.username)._id;
  const credit = await api("PUT", `/users/${userId}/credit`, { availableCredits: credits, reason: "test setup" });
  if (credit.status >= 300) throw new Error(`credit ${credit.status} ${JSON.stringify(credit.body)}`);
  await api("POST", "/logout");
  return userId;
}
