import assert from "node:assert/strict";
import { expectTitle, expectToast, test } from "./fixtures.mjs";

/** Waits until the landing header is hidden (or shown), reporting the scroll position if it never is. */
async function headerHidden(page, hidden) {
  await page
    .waitForFunction((h) => document.querySelector('[data-testid="landing-header"]').className.includes("lp-header--hidden") === h, hidden, { timeout: 4000 })
    .catch(async () => {
      throw new Error(`header hidden should be ${hidden}; scrollY=${await page.evaluate(() => window.scrollY)}`);
    });
}

test("landing: sections, default tab, header hides on scroll, Learn more, Start free trial", async ({ page, shot }) => {
  await page.goto("/");
  await page.getByRole("heading", { name: "Gang sheets, laid out for you in seconds" }).waitFor();
  await expectTitle(page, "GangSheet Studio | Gang sheets made simple");
  await shot("top");

  assert.equal(await page.getByRole("tab", { selected: true }).innerText(), "Automated Image Placement");
  await page.getByRole("tab", { name: "User Dashboard Access" }).click();
  await page.getByRole("heading", { name: "Everything about your sheets on one dashboard" }).waitFor();
  await page.getByRole("tab", { name: "Manual Image Entry" }).click();
  await page.getByRole("heading", { name: "Build a sheet by hand when you want control" }).waitFor();

  for (const f of ["Customizable Templates", "Layout Adjustment", "Batch Processing", "Real-time Preview", "API Integration", "Automated Image Sorting"]) {
    await page.getByRole("heading", { name: f }).waitFor();
  }
  const footer = page.locator("footer");
  assert.match(await footer.innerText(), /trademark of Etsy, Inc\./);
  assert.equal(await footer.locator('a[href^="mailto:"]').count(), 1);
  assert.match(await footer.locator("address").innerText(), /San Francisco/);

  // Clicking the tabs scrolled the page; the header shows again at the top.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await headerHidden(page, false);
  await page.getByRole("button", { name: "Learn more" }).click();
  await page.waitForFunction(() => Math.abs(document.getElementById("features").getBoundingClientRect().top) < 2, null, { timeout: 4000 }).catch(async (err) => {
    throw new Error(`features not scrolled into view: ${await page.evaluate(() => JSON.stringify({ y: window.scrollY, top: document.getElementById("features").getBoundingClientRect().top }))}`, { cause: err });
  });
  await headerHidden(page, true);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await headerHidden(page, false);

  await shot("full", { fullPage: true });
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await page.getByRole("link", { name: "Start free trial" }).first().click();
  await page.waitForURL("**/auth/signup");
});

test.describe(() => {
  test.use({ viewport: { width: 390, height: 844 } });
  test(
    "landing: mobile menu closes on Escape and on an outside click",
    async ({ page, shot }) => {
      await page.goto("/");
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByTestId("mobile-menu").waitFor();
      await shot("menu-open");
      await page.keyboard.press("Escape");
      await page.getByTestId("mobile-menu").waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByTestId("mobile-menu").waitFor();
      await page.mouse.click(200, 600);
      await page.getByTestId("mobile-menu").waitFor({ state: "detached" });
      await shot("full", { fullPage: true });
    },
  );
});

test("visitors on protected pages are sent to the landing page", async ({ page, baseUrl }) => {
  for (const path of ["/dashboard", "/profile", "/users", "/prints/123"]) {
    await page.goto(path);
    await page.waitForURL(`${baseUrl}/`);
  }
});

test("unknown paths show 404 Not Found", async ({ page, shot }) => {
  await page.goto("/no/such/page");
  await page.getByText("404 Not Found").waitFor();
  await expectTitle(page, "GangSheet Studio | Not Found");
  await shot("404");
});

test("verify: a bad token shows the failure state and toast", async ({ page, shot }) => {
  await page.goto("/verify?token=not-a-token");
  await page.getByText("Email verification failed").first().waitFor();
  await expectToast(page, "Email verification failed");
  await page.getByRole("link", { name: "Go to signup" }).waitFor();
  await shot("failed");
});

test("auth pages: validation messages", async ({ page, shot }) => {
  await page.goto("/auth/signin");
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByText("Email is required").waitFor();
  await page.getByText("Password is required").waitFor();
  await expectTitle(page, "GangSheet Studio | Login");
  await shot("signin");

  await page.getByRole("link", { name: "Register Now" }).click();
  await page.waitForURL("**/auth/signup");
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByText("Email is required").waitFor();
  await shot("signup");

  await page.goto("/auth/forgot-password");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByText("Invalid email address").waitFor();
  await page.getByLabel("Email").fill("");
  await page.getByText("Email is required").waitFor();
  await shot("forgot");
});

test("login: wrong password keeps the server's message on screen", async ({ page }) => {
  await page.goto("/auth/signin");
  await page.getByLabel("Email or Username").fill("nobody@e2e.test");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByTestId("login-error").waitFor();
  assert.match(await page.getByTestId("login-error").innerText(), /Invalid email\/username or password/);
});
