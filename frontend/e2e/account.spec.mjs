import assert from "node:assert/strict";
import { expectTitle, expectToast, test, unique } from "./fixtures.mjs";

test("account: landing → signup → verify from mail → login → profile update → logout", async ({ page, baseUrl, mailbox, shot }) => {
  const username = unique("ada");
  const email = `${username}@e2e.test`;
  const password = "Lovelace-1815";

  await page.goto("/");
  await page.getByTestId("landing-header").getByRole("link", { name: "Sign up" }).click();
  await page.waitForURL("**/auth/signup");

  // First letters are uppercased as typed.
  await page.getByLabel("First Name").pressSequentially("ada");
  assert.equal(await page.getByLabel("First Name").inputValue(), "Ada");
  await page.getByLabel("Last Name").fill("lovelace");
  assert.equal(await page.getByLabel("Last Name").inputValue(), "Lovelace");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Company").fill("analytical engines");
  assert.equal(await page.getByLabel("Company").inputValue(), "Analytical engines");
  await page.getByRole("textbox", { name: "Phone" }).pressSequentially("2133734253");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await shot("signup-filled");

  const since = await mailbox.count();
  await page.getByRole("button", { name: "Register" }).click();
  await page.getByText("Form submitted successfully! Please check your email to verify your.").waitFor();
  await expectToast(page, "User registered successfully");
  await shot("signup-done");

  // Not verified yet: login is refused with the server's reason.
  const beforeLogin = await mailbox.count();
  await page.goto("/auth/signin");
  await page.getByLabel("Email or Username").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByTestId("login-error").waitFor();

  // The refused login may mail a fresh link that replaces the first one; use the newest.
  const resent = await mailbox.waitFor(email, { since: beforeLogin, timeout: 3000 }).catch(() => null);
  const mail = resent ?? (await mailbox.waitFor(email, { since }));
  const link = mailbox.link(mail, "/verify");
  assert.ok(link.startsWith(`${baseUrl}/verify?token=`), link);
  await page.goto(link);
  await page.getByText("Email verified successfully").first().waitFor();
  await expectToast(page, "Email verified successfully");
  await shot("verified");
  await page.getByRole("link", { name: "Go to login" }).click();
  await page.waitForURL("**/auth/signin");

  // Login with the username this time.
  await page.getByLabel("Email or Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/dashboard");
  await expectTitle(page, "GangSheet Studio | Dashboard");
  await page.getByTestId("user-menu").getByText("Ada Lovelace").waitFor();
  assert.match(await page.getByTestId("credit-balance").innerText(), /\d+ credits/);
  await shot("dashboard");

  // Non-admins have no Users entry and see the spec's message on the page.
  assert.equal(await page.locator(".gs-sider").getByText("Users", { exact: true }).count(), 0);
  await page.goto("/users");
  await page.getByText("You are not authorized to view this page").waitFor();
  await shot("not-authorized");

  // Signed-in users skip the public pages.
  for (const [from, to] of [["/", "/dashboard"], ["/auth/signin", "/dashboard"], ["/auth/signup", "/dashboard"], ["/auth/forgot-password", "/dashboard"]]) {
    await page.goto(from);
    await page.waitForURL(`**${to}`);
  }

  await chooseFromUserMenu(page, "My Profile", "**/profile");
  await page.getByTestId("profile-name").getByText("Ada Lovelace").waitFor();
  const form = page.getByTestId("profile-form");
  assert.equal(await form.getByLabel("Company").inputValue(), "Analytical engines");
  assert.equal(await form.getByRole("textbox", { name: "Phone" }).inputValue(), "+1 213 373 4253");
  await shot("profile");

  await form.getByLabel("Last Name").fill("King");
  await form.getByRole("textbox", { name: "Phone" }).fill("");
  await form.getByRole("textbox", { name: "Phone" }).pressSequentially("12");
  await form.getByRole("button", { name: "Save changes" }).click();
  await page.getByText("Phone number is not valid").waitFor();
  await form.getByRole("textbox", { name: "Phone" }).fill("");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expectToast(page, "Profile Updated Successfully");
  await page.getByTestId("profile-name").getByText("Ada King").waitFor();
  await page.getByTestId("user-menu").getByText("Ada King").waitFor();
  await page.reload();
  await page.getByTestId("profile-name").getByText("Ada King").waitFor();

  await chooseFromUserMenu(page, "Log Out", `${baseUrl}/`);
  await page.goto("/profile");
  await page.waitForURL(`${baseUrl}/`);
});

test("account: forgot password with the mailed code, and the mail link prefills it", async ({ page, mailbox, createUser, login, shot }) => {
  const user = await createUser();
  await page.goto("/auth/signin");
  await page.getByRole("link", { name: "Forgot Password" }).click();
  await page.waitForURL("**/auth/forgot-password");
  await page.getByLabel("Email").fill(user.email);
  const since = await mailbox.count();
  await page.getByRole("button", { name: "Send code" }).click();
  await expectToast(page, "Password reset key sended to given email");
  await page.getByRole("heading", { name: "Update Password" }).waitFor();

  const mail = await mailbox.waitFor(user.email, { since });
  const link = new URL(mailbox.link(mail, "/auth/forgot-password"));
  const token = link.searchParams.get("token");
  assert.ok(token);

  await page.getByLabel("Reset Token").fill(token);
  await page.getByLabel("Password", { exact: true }).fill("Brand-new-1");
  await page.getByLabel("Confirm Password").fill("Brand-new-2");
  await page.getByText("Passwords do not match").waitFor();
  await shot("reset-mismatch");

  // The link from the mail opens step 2 with the token filled in.
  await page.goto(link.pathname + link.search);
  assert.equal(await page.getByLabel("Reset Token").inputValue(), token);
  await page.getByLabel("Password", { exact: true }).fill("Brand-new-1");
  await page.getByLabel("Confirm Password").fill("Brand-new-1");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expectToast(page, "Password reset successfully");
  await page.waitForURL("**/auth/signin");
  await login(user.username, "Brand-new-1");
});

test("account: changing the password on /profile ends the session and lands on sign-in with a message", async ({ page, mailbox, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.goto("/profile");
  const card = page.locator(".ant-card").filter({ has: page.getByText("Change Password", { exact: true }) });
  const since = await mailbox.count();
  await card.getByRole("button", { name: "Send code" }).click();
  await expectToast(page, "Password reset key sended to given email");
  const mail = await mailbox.waitFor(user.email, { since });
  const token = new URL(mailbox.link(mail, "/auth/forgot-password")).searchParams.get("token");
  assert.ok(token);

  await card.getByLabel("Reset Token").fill(token);
  await card.getByLabel("Password", { exact: true }).fill("Changed-pass-1");
  await card.getByLabel("Confirm Password").fill("Changed-pass-1");
  await card.getByRole("button", { name: "Update Password" }).click();
  await expectToast(page, "Password reset successfully");
  // Every session ended with the change: the seller is told so on the sign-in page.
  await page.waitForURL("**/auth/signin");
  await page.getByTestId("signin-notice").getByText("Your password was changed and every device was signed out. Sign in with the new password.").waitFor();
  await shot("password-changed-signin");
  // A reload does not repeat the notice, and the new password signs in.
  await page.reload();
  await page.getByRole("button", { name: "Login" }).waitFor();
  assert.equal(await page.getByTestId("signin-notice").count(), 0);
  await login(user.username, "Changed-pass-1");
});

// The user menu opens with an animation; on a loaded machine a click that landed while it
// opened left the menu open and the page where it was (My Profile in one CI run, Log Out in
// a run alone). Open and choose again until the page changes, for at most the usual 15 s.
async function chooseFromUserMenu(page, name, url) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await page.getByTestId("user-menu").click();
    await page.getByRole("menuitem", { name }).click();
    if (await page.waitForURL(url, { timeout: 3_000 }).then(() => true, () => false)) return;
    assert.ok(Date.now() < deadline, `${name} in the user menu did not open ${url}`);
    await page.keyboard.press("Escape");
  }
}
