import assert from "node:assert/strict";
import { expectToast, test, waitFor } from "./fixtures.mjs";

// Profile → API keys and Webhooks, and the key working (then not) from outside the browser.
test("profile: create an API key, use it with Bearer, revoke it; add a webhook, send a test event, roll its secret", async ({ page, baseUrl, login, createUser, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.goto("/profile#api-keys");
  const keys = page.locator("#api-keys");
  await keys.getByText("You have no API keys yet.").waitFor();

  await keys.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByRole("button", { name: "Create" }).click();
  await dialog.getByText("Name is required").waitFor();
  await dialog.getByLabel("Name").fill("Shop backend");
  await dialog.getByRole("button", { name: "Create" }).click();

  const reveal = page.getByRole("dialog", { name: "Your new API key" });
  await reveal.getByText("Copy it now: it will not be shown again.").waitFor();
  const secret = await reveal.getByTestId("secret-value").inputValue();
  assert.match(secret, /^gsk_[A-Za-z0-9_-]{40}$/);
  await shot("api-key-created");
  await reveal.getByRole("button", { name: "Done" }).click();

  const row = keys.locator("tr", { hasText: "Shop backend" });
  await row.getByText(`${secret.slice(0, 12)}…`).waitFor();
  await row.getByText("Read and write").waitFor();
  await row.getByText("Active").waitFor();

  // An integrator's script: no cookie, no Origin, only the key.
  const me = await fetch(`${baseUrl}/api/profile`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).data.username, user.username);
  // Last used is filled in by that request.
  await page.reload();
  await waitFor(async () => (await row.locator("td").nth(5).innerText()) !== "Never", { what: "last used" });

  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Revoke", exact: true }).last().click();
  await expectToast(page, "API key revoked");
  await row.getByText("Revoked").waitFor();
  const after = await fetch(`${baseUrl}/api/profile`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(after.status, 401);
  assert.equal((await after.json()).message, "This API key has been revoked.");

  // A test key: gsk_test_…, tagged Test in the list.
  await keys.getByRole("button", { name: "Create key" }).click();
  await dialog.getByLabel("Name").fill("Sandbox");
  await dialog.getByRole("radio", { name: "Test" }).check();
  await dialog.getByRole("button", { name: "Create" }).click();
  const testSecret = await reveal.getByTestId("secret-value").inputValue();
  assert.match(testSecret, /^gsk_test_[A-Za-z0-9_-]{40}$/);
  await reveal.getByRole("button", { name: "Done" }).click();
  const testRow = keys.locator("tr", { hasText: "Sandbox" });
  await testRow.getByText(`${testSecret.slice(0, 17)}…`).waitFor();
  await testRow.getByText("Test", { exact: true }).waitFor();
  assert.equal(await row.getByText("Test", { exact: true }).count(), 0);

  // Webhooks: a private address is refused with the server's message; a public one is added.
  await page.locator("#webhooks").scrollIntoViewIfNeeded();
  const hooks = page.locator("#webhooks");
  await hooks.getByText("You have no webhooks yet.").waitFor();
  await hooks.getByRole("button", { name: "Add endpoint" }).click();
  const add = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await add.getByLabel("URL").fill("http://127.0.0.1:9/hook");
  await add.getByRole("button", { name: "Add" }).click();
  await expectToast(page, "Webhook URLs must point to a public address");
  await add.getByLabel("URL").fill("https://93.184.216.34/hooks/gangsheet");
  await add.getByRole("button", { name: "Add" }).click();
  const whsec = await page.getByRole("dialog", { name: "Signing secret of your webhook" }).getByTestId("secret-value").inputValue();
  assert.match(whsec, /^whsec_/);
  await page.getByRole("dialog", { name: "Signing secret of your webhook" }).getByRole("button", { name: "Done" }).click();
  const hookRow = hooks.locator("tr", { hasText: "93.184.216.34" });
  await hookRow.getByText("print.completed").waitFor();
  await hookRow.getByRole("button", { name: "Send test event" }).click();
  await expectToast(page, "Test event sent");
  await hookRow.locator(".ant-table-row-expand-icon").click();
  await hooks.getByRole("cell", { name: "ping", exact: true }).waitFor();

  // Rolling the secret: a new one, shown once; the old one signs beside it for 24 hours.
  await hookRow.getByRole("button", { name: "Roll secret" }).click();
  await page.getByText("The old one keeps signing deliveries beside it for 24 hours").waitFor();
  await page.getByRole("button", { name: "Roll secret", exact: true }).last().click();
  await expectToast(page, "Signing secret rolled. Copy the new secret now: it will not be shown again. The old one also signs deliveries for 24 hours.");
  const rolledDialog = page.getByRole("dialog", { name: "Signing secret of your webhook" });
  const rolled = await rolledDialog.getByTestId("secret-value").inputValue();
  assert.match(rolled, /^whsec_/);
  assert.notEqual(rolled, whsec);
  await rolledDialog.getByRole("button", { name: "Done" }).click();
  await hookRow.getByText(/^Old secret also signs until /).waitFor();
  await shot("webhooks", { fullPage: true });
});
