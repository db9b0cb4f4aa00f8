import assert from "node:assert/strict";
import { expectTitle, expectToast, test, waitFor } from "./harness.mjs";

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

test("payments: admin adds a package on user detail; the user's header follows live; Completed payments lists it", async ({ page, adminLogin, createUser, api, baseUrl, shot }) => {
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
    await page.getByText(`Add credit to ${user.username}`).waitFor();
    await shot("user-detail-add-credit", { fullPage: true });
    await page.getByTestId("add-credits500").click();
    await expectToast(page, "Credit added successfully");
    await page.getByTestId("available-credits").getByText("500").waitFor();

    // no reload on the seller's side: the payment-{userId} event refreshes the header
    await waitFor(async () => /^500 credits$/.test(await seller.getByTestId("credit-balance").innerText()), { what: "live header balance" });

    await page.goto("/completed-payments");
    const row = page.locator("tbody tr.ant-table-row").filter({ hasText: "Manual" }).filter({ has: page.getByRole("link", { name: "Test Person" }) }).first();
    await row.waitFor();
    assert.equal(await row.getByRole("link").first().getAttribute("href"), `/users/${userId}`);
    assert.equal(await row.getByTestId("payment-status").innerText(), "Completed");
    await shot("completed-payments");
  } finally {
    await sellerContext.close();
  }
});
