// Browser-test harness shared by every spec in this folder.
//
//   import { test } from "./harness.mjs";
//   test("sizes: add a size", async ({ page, baseUrl, mailbox, adminLogin, shot }) => { ... });
//
// run.mjs starts the real services once (SMTP capture, a fresh Postgres database, the
// built backend serving the built UI, Chromium) and runs each registered test in a fresh
// browser context. `withApp(fn)` runs one function against the same app, for ad-hoc use.
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export const ARTIFACTS = new URL("./artifacts/", import.meta.url).pathname;
mkdirSync(ARTIFACTS, { recursive: true });

const registered = [];
let app = null;

/** Registers a test; run.mjs runs them in file order. `options.viewport` sets the window size. */
export function test(name, fn, options = {}) {
  registered.push({ name, fn, options });
}
export const registeredTests = () => registered;

/** Called by run.mjs once the services are up. */
export function setApp(value) {
  app = value;
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/**
 * Runs `fn({ page, context, baseUrl, mailbox, adminLogin, login, shot, admin, api, createUser, queue })` in a
 * new browser context (own cookies and storage). On failure a screenshot named after
 * the test is saved before the error is rethrown.
 */
export async function withApp(fn, { name = "adhoc", viewport = { width: 1366, height: 860 } } = {}) {
  if (!app) throw new Error("withApp: the app is not running (start specs through e2e/run.mjs)");
  const context = await app.browser.newContext({ viewport, baseURL: app.baseUrl });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const consoleErrors = [];
  page.on("pageerror", (err) => consoleErrors.push(String(err)));

  const shot = async (label, opts = {}) => {
    const file = join(ARTIFACTS, `${slug(name)}--${slug(label)}.png`);
    await page.screenshot({ path: file, fullPage: opts.fullPage ?? false });
    return file;
  };
  const login = async (identifier, password) => {
    await page.goto("/auth/signin");
    await page.getByLabel("Email or Username").fill(identifier);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/dashboard");
  };
  const adminLogin = () => login(app.admin.email, app.admin.password);

  // Calls the API directly (same cookie jar as the page) to set up data quickly.
  const api = async (method, path, body) => {
    const res = await context.request.fetch(`${app.baseUrl}/api${path}`, {
      method,
      headers: { "X-Requested-With": "XMLHttpRequest", Origin: app.baseUrl },
      data: body,
    });
    const json = await res.json().catch(() => null);
    return { status: res.status(), body: json };
  };
  /** Registers and verifies a user through the API and the captured mail; returns its credentials. */
  const createUser = async (overrides = {}) => {
    const username = unique("user");
    const user = { firstName: "Test", lastName: "Person", username, email: `${username}@e2e.test`, password: "Secret-123", ...overrides };
    const since = app.mailbox.count();
    const res = await api("POST", "/register", user);
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    const mail = await app.mailbox.waitFor(user.email, { since });
    const token = new URL(app.mailbox.link(mail, "/verify")).searchParams.get("token");
    const verified = await api("GET", `/verify?token=${encodeURIComponent(token)}`);
    if (verified.status !== 200) throw new Error(`verify failed: ${verified.status}`);
    return user;
  };

  try {
    await fn({ page, context, baseUrl: app.baseUrl, mailbox: app.mailbox, admin: app.admin, adminLogin, login, shot, api, createUser, queue: app.queue });
    if (consoleErrors.length) throw new Error(`Uncaught errors in the page:\n${consoleErrors.join("\n")}`);
  } catch (err) {
    await page.screenshot({ path: join(ARTIFACTS, `${slug(name)}--FAILED.png`), fullPage: true }).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
}

/** Unique values so specs never collide with each other or with earlier runs. */
export const unique = (prefix = "u") => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

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
