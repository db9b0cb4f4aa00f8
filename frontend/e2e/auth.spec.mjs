import assert from "node:assert/strict";
import { expectToast, test, unique } from "./fixtures.mjs";

test("auth: at 127.0.0.1 sign-in works (same-origin); auth pages and /verify never fetch the profile", async ({ page, baseUrl, mailbox, api, shot }) => {
  // The app opened by IP instead of APP_URL's localhost.
  const at = baseUrl.replace("localhost", "127.0.0.1");
  const profileCalls = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname === "/api/profile") profileCalls.push(new URL(page.url()).pathname);
  });

  // Sign up through the page, from the IP origin too.
  const username = unique("ipuser");
  const email = `${username}@e2e.test`;
  await page.goto(`${at}/auth/signup`);
  await page.getByLabel("First Name").fill("Ivy");
  await page.getByLabel("Last Name").fill("Address");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("Secret-123");
  const since = await mailbox.count();
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByText("Form submitted successfully! Please check your email to verify your.").waitFor();

  // The mailed link, opened twice: verified, then "already verified". Without a token: idle.
  const link = new URL(mailbox.link(await mailbox.waitFor(email, { since }), "/verify"));
  await page.goto(`${at}${link.pathname}${link.search}`);
  await page.getByText("Email verified successfully").first().waitFor();
  await page.goto(`${at}${link.pathname}${link.search}`);
  await page.getByText("Email already verified").waitFor();
  assert.equal(await page.getByText("Email verification failed").count(), 0);
  await shot("already-verified");
  await page.goto(`${at}/verify`);
  await page.getByText("Verifying email...").waitFor();

  await page.goto(`${at}/auth/signin`);
  await page.getByLabel("Email or Username").fill(username);
  await page.getByLabel("Password").fill("Secret-123");
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(`${at}/dashboard`);

  // Signed in: the public pages send the browser on without asking for the profile there.
  for (const [from, to] of [["/auth/signin", "/dashboard"], ["/auth/signup", "/dashboard"], ["/auth/forgot-password", "/dashboard"]]) {
    await page.goto(`${at}${from}`);
    await page.waitForURL(`${at}${to}`);
  }
  await page.goto(`${at}/verify`);
  await page.getByText("Verifying email...").waitFor();
  await page.waitForTimeout(1500);
  const onPublic = profileCalls.filter((p) => p.startsWith("/auth/") || p === "/verify");
  assert.deepEqual(onPublic, [], `GET /api/profile was called on ${onPublic.join(", ")}`);
  assert.ok(profileCalls.includes("/dashboard"), "protected pages still ask the server");
  void api;
});

test("auth: a new e-mail on the profile needs the current password, changes when the mailed link is opened; the old address is told", async ({ page, mailbox, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.goto("/profile");
  const form = page.getByTestId("profile-form");
  const newEmail = `${unique("moved")}@e2e.test`;
  await form.getByLabel("Email").fill(newEmail);
  await form.getByLabel("Current password").waitFor();
  await form.getByRole("button", { name: "Save changes" }).click();
  await page.getByText("Enter your current password to change the e-mail").waitFor();
  await form.getByLabel("Current password").fill("wrong-password");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expectToast(page, "Current password is incorrect");
  const since = await mailbox.count();
  await form.getByLabel("Current password").fill(user.password);
  await shot("email-change");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expectToast(page, `We sent a link to ${newEmail}`);
  // The address changes when the link mailed to it is opened; then the old address is told.
  const link = mailbox.link(await mailbox.waitFor(newEmail, { since, subject: /Verify/ }), "/verify");
  await page.goto(link);
  await page.getByText("Email address changed").first().waitFor();
  await mailbox.waitFor(user.email, { since, subject: /e-mail address was changed/ });
});
