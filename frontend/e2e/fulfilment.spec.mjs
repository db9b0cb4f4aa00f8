// Fulfilment back to the shop: "Mark shipped" with a carrier and tracking number updates the
// order in the (fake) WooCommerce shop; a refusal shows the shop's message with Retry; the
// orders page stays accessible and fits a phone.
import { expectToast, test, waitFor } from "./fixtures.mjs";
import { axeAudit } from "./axe.mjs";
import { startFakeWoo, syncedShop } from "./fake-woo.mjs";

const control = (woo, body) => fetch(`${woo.baseUrl}/__fake/control`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const received = async (woo) => (await fetch(`${woo.baseUrl}/__fake/received`)).json();

test("fulfilment: Mark shipped sends status and note to the shop; a refusal shows the shop's message and Retry sends it", async ({ page, api, createUser, login, shot }) => {
  const woo = await startFakeWoo();
  try {
    const user = await createUser();
    await login(user.email, user.password);
    const shopId = await syncedShop(api, woo);
    const audit = axeAudit(page, "fulfilment");

    await page.goto("/orders");
    const first = page.getByTestId("fulfilment-1057");
    await first.getByText("Not shipped").waitFor();
    await first.getByRole("button", { name: "Mark shipped: order #1057" }).click();
    const dialog = page.getByRole("dialog", { name: "Mark order #1057 shipped" });
    // a tracking number without its carrier is refused in the form
    await dialog.getByLabel("Tracking number").fill("JD014600006281230704");
    await dialog.getByRole("button", { name: "Mark shipped" }).click();
    await dialog.getByText("Give the carrier together with the tracking number").waitFor();
    await page.mouse.move(0, 0); // a hovered button is drawn lighter; audit it at rest
    await shot("fulfilment-mark-shipped-form");
    await audit.check("mark shipped form");
    await dialog.getByLabel("Carrier").fill("DHL");
    await dialog.getByRole("button", { name: "Mark shipped" }).click();
    await expectToast(page, /The shop is being updated|The order is fulfilled in the shop/);
    await first.getByText("Fulfilled").waitFor({ timeout: 20_000 });
    await first.getByText(/DHL JD014600006281230704/).waitFor();
    const got = await received(woo);
    if (JSON.stringify(got.statusUpdates) !== JSON.stringify([{ orderId: 1057, status: "completed" }])) throw new Error(`status updates ${JSON.stringify(got.statusUpdates)}`);
    if (got.notes.length !== 1 || !got.notes[0].note.includes("Shipped with DHL, tracking number JD014600006281230704")) throw new Error(`notes ${JSON.stringify(got.notes)}`);

    // the status a shipped order gets is the shop connection's setting
    await page.goto("/integrations");
    await page.getByRole("button", { name: "Edit Woo shop" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Integration" });
    const setting = edit.getByLabel("Order status when shipped");
    await waitFor(async () => (await setting.inputValue()) === "completed", { what: "the default status in the form" });
    await setting.fill("shipped");
    await edit.getByRole("button", { name: "Save" }).click();
    await waitFor(async () => (await api("GET", `/integrations/${shopId}`)).body.data.fulfilmentStatus === "shipped", { what: "the saved status" });
    await page.goto("/orders");

    // the shop refuses: its message on the order, and Retry
    await control(woo, { refuseWrites: { status: 400, code: "woocommerce_rest_invalid_order", message: "Order is on hold by the payment plugin." } });
    const second = page.getByTestId("fulfilment-1058");
    await second.getByRole("button", { name: "Mark shipped: order #1058" }).click();
    await page.getByRole("dialog", { name: "Mark order #1058 shipped" }).getByRole("button", { name: "Mark shipped" }).click();
    await second.getByText("Shop refused").waitFor({ timeout: 20_000 });
    await second.getByText("WooCommerce refused: Order is on hold by the payment plugin. (woocommerce_rest_invalid_order)").waitFor();
    await shot("fulfilment-refused");
    await page.mouse.move(0, 0);
    await audit.check("orders with a refusal");
    // the filter finds it
    await page.getByRole("combobox", { name: "Fulfilment" }).click();
    await page.locator(".ant-select-item-option").filter({ hasText: "Shop refused" }).click();
    await page.waitForURL(/fulfilment=failed/);
    await waitFor(async () => (await page.locator("[data-testid^=fulfilment-]").count()) === 1, { what: "only the refused order listed" });

    await control(woo, { refuseWrites: null });
    await second.getByRole("button", { name: "Retry: order #1058" }).click();
    await page.goto("/orders?fulfilment=fulfilled");
    await page.getByTestId("fulfilment-1058").getByText("Fulfilled").waitFor({ timeout: 20_000 });
    const after = await received(woo);
    if (JSON.stringify(after.statusUpdates.filter((u) => u.orderId === 1058)) !== JSON.stringify([{ orderId: 1058, status: "shipped" }])) throw new Error(`status updates ${JSON.stringify(after.statusUpdates)}`);
    // the shop's own state: #1058 came completed from the shop, so it is listed under "Closed in the shop"
    await page.goto("/orders");
    await page.getByRole("combobox", { name: "In the shop" }).click();
    await page.locator(".ant-select-item-option").filter({ hasText: "Closed in the shop" }).click();
    await page.waitForURL(/shop=closed/);
    const closed = (await api("GET", "/orders?shop=closed&limit=100")).body;
    if (!closed.data.some((o) => o.orderId === "1058") || closed.data.some((o) => o.shopStatus === "processing")) throw new Error(`closed in the shop: ${JSON.stringify(closed.data.map((o) => [o.orderId, o.shopStatus]))}`);
    await page.getByTestId("fulfilment-1058").waitFor();
    await waitFor(async () => (await page.locator("[data-testid^=fulfilment-]").count()) === closed.pagination.totalDocuments, { what: "only the orders closed in the shop listed" });
    await audit.assertClean();

    // phone width: the orders (cards) and the action fit
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/orders");
    await page.getByTestId("fulfilment-1058").getByText("Fulfilled").waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > 375) throw new Error(`the orders page is ${wide} px wide at 375 px`);
    await shot("fulfilment-phone");
  } finally {
    woo.stop();
  }
});
