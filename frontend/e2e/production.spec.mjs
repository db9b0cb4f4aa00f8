// Production: a seller with a synced WooCommerce shop sees the order items waiting in the
// queue, sets a cut-off in the batching rules, batches by hand and finds the batch (a print)
// in the recent batches; the page passes axe and keeps every control on a 375 px screen.
import { expectToast, test } from "./fixtures.mjs";
import { axeViolations } from "./axe.mjs";
import { startFakeWoo, syncedShop } from "./fake-woo.mjs";

const PHONE = 375;

test("production: queue of shop order items, batching rules, Batch now, the batch links to its print", async ({ page, api, createUser, login, shot }) => {
  const woo = await startFakeWoo();
  try {
    const user = await createUser();
    await login(user.email, user.password);
    if ((await api("POST", "/sizes", { name: "A3", value: 4 })).status !== 201) throw new Error("size");
    await syncedShop(api, woo);

    await page.getByRole("link", { name: "Production" }).first().click();
    await page.waitForURL("**/production");
    await page.getByRole("heading", { name: "Production", level: 1 }).waitFor();
    // #1057's two lines wait, their designs to be downloaded when batched; #1058 was completed in the shop
    const rows = page.locator("tr").filter({ hasText: "#1057" });
    await rows.first().waitFor();
    if ((await rows.count()) !== 2) throw new Error(`expected 2 queue rows, got ${await rows.count()}`);
    await rows.first().getByText("Ready (design to download)").waitFor();
    if (await page.locator("tr").filter({ hasText: "#1058" }).count()) throw new Error("an order completed in the shop is queued");
    await page.getByText("Batching by hand only").waitFor();
    await shot("production-queue");
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    if (serious.length) throw new Error(`axe: ${JSON.stringify(serious, null, 2)}`);

    // Batching rules: a 14:00 cut-off, labels on
    await page.getByRole("button", { name: "Batching rules" }).click();
    const drawer = page.locator(".ant-drawer-content");
    await drawer.getByText("When to batch").waitFor();
    const cutoffs = drawer.getByLabel("Cut-off times (HH:MM)");
    await cutoffs.fill("14:00");
    await cutoffs.press("Enter");
    await shot("production-settings");
    const drawerViolations = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    if (drawerViolations.length) throw new Error(`axe (rules): ${JSON.stringify(drawerViolations, null, 2)}`);
    await drawer.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Batching rules saved");
    await page.getByText(/Batching at 14:00/).waitFor();
    const saved = (await api("GET", "/production/settings")).body.data;
    if (saved.triggers.cutoffs.join() !== "14:00" || !saved.labels) throw new Error(`settings not saved: ${JSON.stringify(saved)}`);

    // Batch now: both lines into one batch, left In Draft (no credits)
    await page.getByRole("button", { name: "Batch now" }).click();
    await expectToast(page, "1 batch made (3 copies)");
    await page.getByText("No order items waiting").waitFor();
    const batch = page.locator("tr").filter({ hasText: "Batch now" });
    await batch.getByText("In Draft").waitFor();
    await shot("production-batched", { fullPage: true });

    // 375 px: nothing leaves the screen sideways
    await page.setViewportSize({ width: PHONE, height: 812 });
    await page.reload();
    await page.getByRole("heading", { name: "Production", level: 1 }).waitFor();
    await page.getByText("Recent batches").waitFor();
    const wide = await page.evaluate((w) => {
      const off = [...document.querySelectorAll("button, a[href], input, [role=button]")]
        .filter((el) => el.checkVisibility())
        .map((el) => ({ t: (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 30), r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && (r.right > w + 0.5 || r.left < -0.5))
        .map(({ t }) => t);
      return { off, scrollWidth: document.documentElement.scrollWidth };
    }, PHONE);
    if (wide.scrollWidth > PHONE || wide.off.length) throw new Error(`off-screen at ${PHONE}px: ${JSON.stringify(wide)}`);
    await shot("production-phone", { fullPage: true });

    // The batch is a print of type Batch
    await page.getByRole("link", { name: /^Print [0-9A-F]{8}$/ }).first().click();
    await page.waitForURL(/\/prints\/[0-9a-f-]{36}$/);
    await page.getByText("Custom Tee Print - A3 (back)").first().waitFor();
  } finally {
    woo.stop();
  }
});
