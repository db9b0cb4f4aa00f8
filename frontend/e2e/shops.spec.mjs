// Shops: add a WooCommerce integration against the fake store, sync its orders (progress
// over the socket), select order items, review them, create and process the print, and
// see the order Completed.
import { expectToast, grantCredits, test, unique, waitFor } from "./fixtures.mjs";
import { startFakeWoo, syncedShop } from "./fake-woo.mjs";

test("shops: connect WooCommerce, sync, select order items, review, create and process the print", async ({ page, api, admin, createUser, login, shot }) => {
  const woo = await startFakeWoo();
  try {
    const user = await createUser();
    await grantCredits({ api, admin }, user, 50);
    await login(user.email, user.password);
    const size = await api("POST", "/sizes", { name: "A3", value: 4 });
    if (size.status !== 201) throw new Error(`size ${size.status}`);

    // Integrations: empty, then the WordPress form
    await page.goto("/integrations");
    await page.getByText("You have not added any integrations yet. Click the button below to add a new integration.").waitFor();
    await page.getByRole("button", { name: "Add Integration" }).first().click();
    const name = unique("Woo shop ");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Store URL").fill(woo.baseUrl);
    await page.getByLabel("Consumer key").fill("ck_wrong");
    await page.getByLabel("Consumer secret").fill(woo.consumerSecret);
    await shot("add-integration");
    await page.getByRole("button", { name: "Create" }).click();
    await expectToast(page, "WooCommerce refused the keys");
    await page.getByLabel("Consumer key").fill(woo.consumerKey);
    await page.getByRole("button", { name: "Create" }).click();
    await expectToast(page, "Integration connected");
    const row = page.locator("tr").filter({ hasText: name });
    await row.getByText("Connected").waitFor();
    await page.locator(".ant-modal").waitFor({ state: "hidden" });
    await shot("integrations");

    // Integration Orders: the seller's only shop is chosen already; sync, the result arrives over the socket
    await page.goto("/orders");
    await page.locator(".ant-select-selection-item").filter({ hasText: name }).waitFor();
    await page.getByTestId("last-sync").getByText("Never synced").waitFor();
    await page.getByRole("button", { name: "Sync orders" }).click();
    await expectToast(page, "Order sync started");
    await expectToast(page, "Orders synced: 2 checked, 2 new");
    await page.getByTestId("last-sync").getByText(/Last synced/).waitFor();
    const order = page.locator("tr").filter({ hasText: "#1057" });
    await order.getByText("Pending").waitFor();
    await order.getByRole("button", { name: "Show Items" }).click();
    const items = page.locator(".ant-table-expanded-row").first();
    await items.getByText("Custom Tee Print - A3 (back)").waitFor();
    await items.locator("thead .ant-checkbox-input").check();
    await page.getByText("2 order items selected").waitFor();
    await shot("orders-selected", { fullPage: true });
    await page.getByRole("button", { name: "Create Print" }).click();

    // Review print: both items have their design file and the A3 size
    await page.waitForURL("**/prints/review-print?orderItems=*");
    await page.getByText("Design file from the order").first().waitFor();
    for (const col of ["Title", "Order ID", "Reference", "SKU", "Size", "Quantity", "Price", "Status"]) await page.getByRole("columnheader", { name: col, exact: true }).waitFor();
    if (await page.getByTestId("item-problem").count()) throw new Error("unexpected unresolved items on the review screen");
    await shot("review-print");
    await page.getByRole("button", { name: "Create Print (Process)" }).click();
    await page.getByRole("button", { name: "Proceed" }).click();
    await page.waitForURL(/\/prints\/[0-9a-f-]{36}$/, { timeout: 120_000 });
    const printId = page.url().split("/").pop();
    await waitFor(async () => (await api("GET", `/print/${printId}`)).body.data.status === "Completed", { what: "the print to complete", timeout: 90_000 });
    const print = (await api("GET", `/print/${printId}`)).body.data;
    if (print.type !== "WooCommerce" || print.printItems.length !== 2) throw new Error(`unexpected print ${JSON.stringify(print)}`);
    await shot("print-completed");

    // The order follows its print
    await page.goto("/orders?status=Completed");
    await page.locator("tr").filter({ hasText: "#1057" }).getByText("Completed").waitFor();
    await shot("orders-completed");

    // Integration detail: name, order count, printed count
    await page.goto("/integrations");
    await page.getByRole("link", { name }).click();
    await page.waitForURL(/\/integrations\/[0-9a-f-]{36}$/);
    await page.locator(".ant-statistic").filter({ hasText: "Orders" }).getByText("2").waitFor();
    await page.locator(".ant-statistic").filter({ hasText: "Printed" }).getByText("1").waitFor();
    await shot("integration-detail");
  } finally {
    woo.stop();
  }
});

test.describe(() => {
  test.use({ viewport: { width: 390, height: 800 } });
  test("shops: on a phone the selection count and Create Print sit in a bar fixed at the bottom", async ({ page, api, createUser, login, shot }) => {
    const woo = await startFakeWoo();
    try {
      const user = await createUser();
      await login(user.email, user.password);
      const id = await syncedShop(api, woo, "Phone shop");
      await page.goto(`/orders?integrationId=${id}`);
      // Orders and their items are cards on a phone.
      const order = page.getByTestId("card-row").filter({ hasText: "#1058" });
      await order.getByRole("button", { name: "Show Items" }).click();
      await order.getByRole("checkbox", { name: "Select", exact: true }).first().check();
      const bar = page.getByTestId("order-selection-bar");
      await bar.getByText("1 order items selected").waitFor();
      const box = await bar.boundingBox();
      const position = await bar.evaluate((el) => getComputedStyle(el).position);
      if (position !== "fixed" || !box || Math.abs(box.y + box.height - 800) > 2) throw new Error(`selection bar not fixed at the bottom: ${position} ${JSON.stringify(box)}`);
      await shot("orders-phone");
    } finally {
      woo.stop();
    }
  });
});
