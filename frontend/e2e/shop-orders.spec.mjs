// Shop orders keep their identity: a seller's only shop is chosen without picking it, each
// order shows the shop's own status beside ours, and a print item made from an order names
// that order (number, buyer, line title) and links to it.
import { expectToast, test } from "./fixtures.mjs";
import { startFakeWoo } from "./fake-woo.mjs";

test("shop orders: the only shop syncs without picking it, the shop's status shows, a print item links to its order", async ({ page, api, createUser, login, shot }) => {
  const woo = await startFakeWoo();
  try {
    const user = await createUser();
    await login(user.email, user.password);
    if ((await api("POST", "/sizes", { name: "A3", value: 4 })).status !== 201) throw new Error("size");
    const created = await api("POST", "/integrations", {
      name: "My only shop",
      type: "WordPress",
      keys: [{ key: "baseUrl", value: woo.baseUrl }, { key: "consumerKey", value: woo.consumerKey }, { key: "consumerSecret", value: woo.consumerSecret }],
    });
    if (created.status !== 201) throw new Error(`integration ${created.status} ${JSON.stringify(created.body)}`);

    // One shop: it is chosen already and Sync orders works at once
    await page.goto("/orders");
    await page.getByTestId("last-sync").getByText("Never synced").waitFor();
    await page.getByRole("button", { name: "Sync orders" }).click();
    await expectToast(page, "Orders synced: 2 checked, 2 new");

    // The shop's own status beside ours: #1058 was completed in the shop, not printed here
    const done = page.locator("tr").filter({ hasText: "#1058" });
    await done.getByText("Pending").waitFor();
    await done.getByTestId("shop-status").getByText("Shop: completed").waitFor();
    await page.locator("tr").filter({ hasText: "#1057" }).getByTestId("shop-status").getByText("Shop: processing").waitFor();
    await shot("orders-shop-status");

    // A print of order #1057's first line names the order and links to it
    const orders = (await api("GET", "/orders?limit=10")).body.data;
    const line = orders.find((o) => o.orderId === "1057").orderItems.find((i) => i.title === "Custom Tee Print - A3");
    const print = await api("POST", "/orders/print", { orderItems: [line._id] });
    if (print.status !== 201) throw new Error(`print ${print.status} ${JSON.stringify(print.body)}`);
    await page.goto(`/prints/${print.body._id}`);
    const link = page.getByRole("link", { name: "#1057 · Lena Maier" });
    await link.waitFor();
    await page.getByText("Custom Tee Print - A3", { exact: true }).waitFor();
    if (await page.getByText(line._id).count()) throw new Error("the order item's id is still shown");
    await shot("print-detail-order-item");
    await link.click();
    await page.waitForURL(/\/orders\?id=[0-9a-f-]{36}$/);
    await page.getByText("Showing one order.").waitFor();
    await page.locator(".ant-table-expanded-row").getByText("Custom Tee Print - A3 (back)").waitFor();
    if (await page.locator("tr").filter({ hasText: "#1058" }).count()) throw new Error("the linked order's page lists other orders");
    await shot("orders-one-order");
    await page.getByRole("button", { name: "Show all orders" }).click();
    await page.locator("tr").filter({ hasText: "#1058" }).first().waitFor();

    // Searching by the order number keeps only that order, in the URL too
    await page.getByPlaceholder("Order, buyer or SKU").fill("1057");
    await page.waitForURL(/[?&]search=1057/);
    await page.locator("tr").filter({ hasText: "#1058" }).first().waitFor({ state: "detached" });
    await page.locator("tr").filter({ hasText: "#1057" }).first().waitFor();
  } finally {
    woo.stop();
  }
});
