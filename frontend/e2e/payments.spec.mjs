import assert from "node:assert/strict";
import { expectTitle, expectToast, test, waitFor } from "./fixtures.mjs";

const balanceText = (page) => page.getByTestId("credit-balance").innerText();

test("payments: buy a package on the test checkout, approve, Payment Successful, header balance and history", async ({ page, login, createUser, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);

  // Fresh account: the first-month banner and discounted prices.
  await page.getByText("Credits purchased in the first month are available at a 50% discount!").waitFor();
  const pkg = page.getByTestId("package-credits1000");
  await pkg.getByTestId("price").getByText("$95").waitFor();
  assert.equal(await pkg.getByTestId("list-price").innerText(), "$190");
  assert.match(await balanceText(page), /^0 credits$/);
  await shot("dashboard-buy-credits", { fullPage: true });

  // The profile's empty history, with its Buy Credits button (buyCredit=100).
  await page.goto("/profile/#payments");
  await page.getByText("You have no payment history. Start buying credits now.").waitFor();
  await page.getByTestId("empty-buy-credits").click();
  await page.waitForURL((u) => u.searchParams.get("buyCredit") === "100");
  await page.locator(".ant-modal").getByTestId("package-credits500").waitFor();
  await shot("profile-buy-credit-modal");
  await page.goto("/dashboard");

  await pkg.click();
  await page.getByTestId("paypal-button").click();
  await expectToast(page, "You will be redirected to paypal's payment page.");
  await page.waitForURL("**/api/checkout/test/TEST-*");
  await page.getByText("Pay 95.00 USD").waitFor();
  await shot("test-checkout");
  await page.getByRole("link", { name: "Approve" }).click();

  await page.waitForURL("**/dashboard?PaymentResult=Completed");
  await page.getByText("Payment Successful").waitFor();
  await waitFor(async () => /^1,000 credits$/.test(await balanceText(page)), { what: "header balance 1,000" });
  await shot("payment-successful");

  await page.getByTestId("payment-history-link").click();
  await page.waitForURL("**/profile/#payments");
  const row = page.getByTestId("payment-history").locator("tbody tr.ant-table-row").first();
  await row.getByText("credits1000").waitFor();
  assert.equal(await row.getByTestId("payment-status").innerText(), "Completed");
  assert.match(await row.getByTestId("payment-status").getAttribute("class"), /ant-tag-success/);
  await shot("payment-history", { fullPage: true });
});

test("payments: cancel on the test checkout shows Payment Cancelled; an unknown payment shows Payment Failed", async ({ page, login, createUser, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.getByTestId("package-credits500").click();
  await page.getByTestId("paypal-button").click();
  await page.waitForURL("**/api/checkout/test/TEST-*");
  await page.getByRole("link", { name: "Cancel" }).click();
  await page.waitForURL("**/dashboard?PaymentResult=Cancelled");
  await page.getByText("Payment Cancelled").waitFor();
  await page.getByText("The payment process was not successful. Please try again.").waitFor();
  assert.match(await balanceText(page), /^0 credits$/);
  await shot("payment-cancelled");
  // closing the modal removes the parameter
  await page.locator(".ant-modal-close").click();
  await page.waitForURL((u) => !u.searchParams.has("PaymentResult"));

  await page.goto("/profile/#payments");
  const status = page.getByTestId("payment-history").getByTestId("payment-status").first();
  await status.waitFor();
  assert.equal(await status.innerText(), "Cancelled");
  assert.match(await status.getAttribute("class"), /ant-tag-error/);

  await page.goto("/payment/00000000-0000-4000-8000-000000000000");
  await page.getByText("Payment Failed").first().waitFor();
  await page.getByText("The payment process was not successful. Please try again.").waitFor();
  await expectTitle(page, "GangSheet Studio | Payment Failed");
  await shot("payment-failed");
  await page.getByRole("button", { name: "Go to Homepage" }).click();
  await page.waitForURL("**/dashboard");
});

test("payments: admin adds credit on user detail only after confirming amount and reason; a grant, not a payment; the seller's header follows live; the credit history shows who and why", async ({ page, adminLogin, createUser, api, baseUrl, shot }) => {
  const user = await createUser();
  // the seller watches the dashboard in another browser
  const sellerContext = await page.context().browser().newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 860 } });
  const seller = await sellerContext.newPage();
  try {
    await adminLogin();
    await seller.goto("/auth/signin");
    await seller.getByLabel("Email or Username").fill(user.username);
    await seller.getByLabel("Password").fill(user.password);
    await seller.getByRole("button", { name: "Login" }).click();
    await seller.waitForURL("**/dashboard");
    await seller.getByTestId("credit-balance").getByText("0 credits").waitFor();

    const found = await api("GET", `/users?search=${user.username}`);
    const userId = found.body.data.find((u) => u.username === user.username)._id;
    await page.goto(`/users/${userId}`);
    await page.getByText(`Add credit to ${user.username}`).first().waitFor();
    await page.getByTestId("credit-history").getByText("No credit changes yet").waitFor();
    await shot("user-detail-add-credit", { fullPage: true });

    // The button only opens the confirmation: nothing is added yet.
    await page.getByTestId("add-credits500").click();
    const confirm = page.locator(".ant-modal").filter({ hasText: `Add credit to ${user.username}` });
    await confirm.waitFor();
    assert.equal(await confirm.getByLabel("Credits to add").inputValue(), "500");
    assert.equal((await api("GET", `/users/${userId}`)).body.data.credit.availableCredits, 0);
    // The reason is required.
    await confirm.getByRole("button", { name: "Add 500 credits" }).click();
    await confirm.getByText("A reason is required").waitFor();
    await confirm.getByLabel("Credits to add").fill("750");
    await confirm.getByLabel("Reason").fill("Goodwill for the misprinted sheet");
    await page.waitForTimeout(300); // the modal animates in
    await shot("grant-confirm");
    await confirm.getByRole("button", { name: "Add 750 credits" }).click();
    await expectToast(page, `750 credits added to ${user.username}`);
    await confirm.waitFor({ state: "hidden" });
    await page.getByTestId("available-credits").getByText("750").waitFor();

    // no reload on the seller's side: the notification event refreshes the header
    await waitFor(async () => /^750 credits$/.test(await seller.getByTestId("credit-balance").innerText()), { what: "live header balance" });

    // The audit: the grant with its amount, the admin and the reason, newest first.
    const history = page.getByTestId("credit-history");
    const first = history.locator("tbody tr.ant-table-row").first();
    await first.getByText("Added by an admin").waitFor();
    assert.equal(await first.getByTestId("credit-change").innerText(), "+750");
    await first.getByText("“Goodwill for the misprinted sheet”").waitFor();
    await first.getByText("Admin Account").waitFor();

    // A direct balance edit asks for a reason too, and lands in the same history.
    await page.getByTestId("available-credits").click();
    const edit = page.locator(".ant-modal").filter({ hasText: "Edit credit" });
    await page.waitForFunction(() => document.querySelector(".ant-modal input#editCredit_availableCredits")?.value === "750");
    await edit.getByLabel("Available credits").fill("700");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByText("A reason is required").waitFor();
    await edit.getByLabel("Reason").fill("Correction: 50 were given twice");
    await edit.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Credit added successfully");
    await edit.waitFor({ state: "hidden" });
    await history.locator("tbody tr.ant-table-row").first().getByText("Balance set by an admin").waitFor();
    assert.equal(await history.locator("tbody tr.ant-table-row").first().getByTestId("credit-change").innerText(), "-50");
    await history.getByText("2 changes").waitFor();
    await shot("credit-history", { fullPage: true });

    // No money moved: nothing for this user in Completed payments, nothing in the seller's history.
    const completed = await api("GET", `/completedTransfers?search=${user.username}`);
    assert.equal(completed.body.pagination.totalDocuments, 0);
    await page.goto(`/completed-payments?search=${user.username}`);
    await page.locator(".ant-table-placeholder").waitFor();
    await seller.goto("/profile/#payments");
    await seller.getByText("You have no payment history. Start buying credits now.").waitFor();
  } finally {
    await sellerContext.close();
  }
});

test("payments: bank transfer from the credits section shows the bank details and the reference; the history does not scroll sideways; the admin marks it received", async ({ page, login, admin, baseUrl, createUser, api, shot }, testInfo) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.goto("/profile");
  const buy = page.getByTestId("buy-credits");
  await buy.getByTestId("package-credits1000").click();
  await buy.getByTestId("bank-transfer-button").click();
  await page.waitForURL((u) => /^[0-9a-f-]{36}$/.test(u.searchParams.get("bankTransfer") ?? ""));
  const modal = page.locator(".ant-modal").filter({ hasText: "Pay by bank transfer" });
  const details = modal.getByTestId("bank-details");
  await details.getByText("E2E Test Bank").waitFor();
  await details.getByText("DE89370400440532013000").waitFor();
  await details.getByText("12345678").waitFor();
  await details.getByText("$95").waitFor();
  const reference = await details.getByTestId("bank-reference").innerText();
  assert.match(reference, /^GS-[2-9A-HJKMNP-Z]{8}$/);
  await modal.getByText(`Put the reference ${reference} in the transfer`).waitFor();
  await page.waitForTimeout(300); // the modal animates in
  await shot("bank-transfer-modal");
  await modal.locator(".ant-modal-footer").getByRole("button", { name: "Close" }).click();
  await page.waitForURL((u) => !u.searchParams.has("bankTransfer"));

  // The Pending transfer in the history: its one action opens the same details; the table fits its card.
  const history = page.getByTestId("payment-history");
  const row = history.locator("tbody tr.ant-table-row").filter({ hasText: reference });
  await row.getByText("Bank transfer").waitFor();
  const fits = await history.locator(".ant-table-content, .ant-table-body").first().evaluate((el) => el.scrollWidth <= el.clientWidth);
  assert.ok(fits, "the payment history scrolls sideways");
  await row.getByRole("button", { name: "How to pay" }).click();
  await modal.getByTestId("bank-reference").getByText(reference).waitFor();
  await shot("bank-transfer-history", { fullPage: true });
  await modal.locator(".ant-modal-footer").getByRole("button", { name: "Close" }).click();

  // Where the server has no bank details, the credits section does not offer it.
  await page.route("**/api/payment/packages", async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: { ...body, data: { ...body.data, bankTransfer: false } } });
  });
  await page.reload();
  await buy.getByTestId("paypal-button").waitFor();
  assert.equal(await buy.getByTestId("bank-transfer-button").count(), 0);
  await page.unroute("**/api/payment/packages");

  // The admin (own browser) sees it waiting and marks the money received: it completes and adds the credits.
  const adminContext = await page.context().browser().newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 860 } });
  try {
    const adminPage = await adminContext.newPage();
    await adminPage.goto("/auth/signin");
    await adminPage.getByLabel("Email or Username").fill(admin.email);
    await adminPage.getByLabel("Password").fill(admin.password);
    await adminPage.getByRole("button", { name: "Login" }).click();
    await adminPage.waitForURL("**/dashboard");
    await adminPage.goto("/completed-payments");
    // "Show expired" lists the transfers cancelled unpaid (none yet), and back
    const card = adminPage.getByTestId("awaiting-transfers");
    await card.getByRole("switch", { name: "Show expired" }).click();
    await card.getByText("No expired bank transfers.").waitFor();
    await card.getByRole("switch", { name: "Show expired" }).click();
    const waiting = card.locator("tr").filter({ hasText: reference });
    await waiting.waitFor();
    await waiting.getByRole("button", { name: "Mark as received" }).click();
    await adminPage.locator(".ant-popconfirm").getByRole("button", { name: "Mark as received" }).click();
    await expectToast(adminPage, "Transfer marked as received: credits added");
    const done = adminPage.locator("tbody tr.ant-table-row").filter({ hasText: reference });
    await done.getByText("Bank transfer").waitFor();
    assert.equal(await done.getByTestId("payment-status").innerText(), "Completed");
    await testInfo.attach("admin-received", { body: await adminPage.screenshot(), contentType: "image/png" });
  } finally {
    await adminContext.close();
  }
  assert.equal((await api("GET", "/profile")).body.data.credit.availableCredits, 1000);
});
