// Browser end-to-end tests: `npm run test:browser -w frontend [-- "title filter"]`.
// Needs a built backend and frontend (`npm run build` at the root), PostgreSQL on
// 127.0.0.1:5432, Redis on 6379 and Debian's chromium at /usr/bin/chromium: Playwright
// never downloads a browser here. e2e/global-setup.mjs starts the app once for the run.
import { defineConfig } from "@playwright/test";

const CI = !!process.env.CI;

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.mjs",
  globalSetup: "./e2e/global-setup.mjs",
  // One browser at a time: the specs share one backend, and the machine has 2 cores.
  workers: 1,
  fullyParallel: false,
  forbidOnly: CI,
  // On a loaded machine a click can race a re-render; a test that passes only on its retry
  // is reported as flaky, never hidden.
  retries: CI ? 1 : 0,
  // Whole flows with print processing in them, on a machine that may be busy: a safety net,
  // each step has its own shorter timeout.
  timeout: 600_000,
  outputDir: "e2e/artifacts/results",
  reporter: [["list"], ["html", { outputFolder: "e2e/artifacts/report", open: "never" }]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    },
    viewport: { width: 1366, height: 860 },
    actionTimeout: 15_000,
    navigationTimeout: 15_000,
    // Recording a trace slows every test; under CI only the retry of a failed test records one.
    trace: CI ? "on-first-retry" : "retain-on-failure",
    screenshot: { mode: "only-on-failure", fullPage: true },
  },
});
