// Production, the whole day: a seller connects the fake WooCommerce shop, syncs, turns on
// "batch at 14:00, auto-process, labels" — and with the clock moved past 14:00 finds the
// batch made by the cut-off and processed, the sheet with a label beside every copy, the
// packing list listing every order, and every order marked completed in the shop.
//
// The backend runs in another process: production batching's clock is moved through the
// file named by E2E_PRODUCTION_CLOCK_FILE (milliseconds added; global-setup.mjs sets it, a
// production server refuses it), and its schedule ticks every few seconds.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { expectToast, grantCredits, test, unique, waitFor } from "./fixtures.mjs";
import { axeAudit } from "./axe.mjs";
import { startFakeWoo } from "./fake-woo.mjs";

const PHONE = 375;
const TZ = "Europe/Vienna";

/** The wall-clock fields of `t` in `tz`. */
function wall(t, tz) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(t);
  const get = (k) => Number(parts.find((p) => p.type === k).value);
  return { y: get("year"), mo: get("month"), d: get("day"), h: get("hour"), mi: get("minute"), s: get("second") };
}

/** The first instant after now whose wall-clock time in `tz` is hh:mm:ss. */
function nextWallTime(hh, mm, ss, tz) {
  const today = wall(new Date(), tz);
  for (let dd = 0; dd < 3; dd++) {
    const target = Date.UTC(today.y, today.mo - 1, today.d + dd, hh, mm, ss);
    let t = target;
    for (let k = 0; k < 2; k++) {
      const w = wall(new Date(t), tz);
      t = target - (Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - t);
    }
    if (t > Date.now() + 60_000) return t;
  }
  throw new Error("no next wall time");
}

const clockFile = () => {
  const f = process.env.E2E_PRODUCTION_CLOCK_FILE;
  if (!f) throw new Error("E2E_PRODUCTION_CLOCK_FILE is not set: run through playwright.config.ts");
  return f;
};
const moveClock = (ms) => writeFileSync(clockFile(), String(Math.round(ms)));
const resetClock = () => rmSync(clockFile(), { force: true });

test("production done: fake shop connected, cut-off at 14:00 with auto-process and labels; the clock moves past it: labelled sheets, packing list, orders completed in the shop", async ({ page, api, admin, createUser, login, shot }) => {
  // a whole day's flow on a machine that may be busy: each step may take longer than the default
  page.setDefaultTimeout(45_000);
  const woo = await startFakeWoo();
  const work = mkdtempSync(join(tmpdir(), "gs-production-done-"));
  try {
    // Two more orders in the shop (besides #1057, and #1058 completed there already)
    const up = (f) => `${woo.baseUrl}/wp-content/uploads/product_addons_uploads/7f3a/${f}`;
    const hoursAgo = (h) => new Date(Date.now() - h * 3_600_000).toISOString();
    const placed = await fetch(`${woo.baseUrl}/__fake/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { id: 2001, created: hoursAgo(3), items: [{ id: 20011, name: "Sunset Tee - A3", sku: "SUN-A3", size: "A3", quantity: 2, price: 15, upload: up("sunset.png") }] },
        {
          id: 2002,
          created: hoursAgo(2),
          items: [
            { id: 20021, name: "Wave Tee - A3", sku: "WAVE-A3", size: "A3", quantity: 1, price: 15, upload: up("wave.png") },
            { id: 20022, name: "Sunset Tee - A3", sku: "SUN-A3", size: "A3", quantity: 1, price: 15, upload: up("sunset.png") },
          ],
        },
      ]),
    });
    if (!placed.ok) throw new Error(`fake orders ${placed.status}`);
    const ORDERS = ["1057", "2001", "2002"];

    const user = await createUser();
    await grantCredits({ api, admin }, user, 50);
    await login(user.email, user.password);
    if ((await api("POST", "/sizes", { name: "A3", value: 3 })).status !== 201) throw new Error("size");
    const audit = axeAudit(page, "production-done");

    // Connect the shop and sync its orders
    await page.goto("/integrations");
    await page.getByRole("button", { name: "Add Integration" }).first().click();
    const name = unique("Woo shop ");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Store URL").fill(woo.baseUrl);
    await page.getByLabel("Consumer key").fill(woo.consumerKey);
    await page.getByLabel("Consumer secret").fill(woo.consumerSecret);
    await page.getByRole("button", { name: "Create" }).click();
    await expectToast(page, "Integration connected");
    await page.locator("tr").filter({ hasText: name }).getByText("Connected").waitFor();
    await page.goto("/orders");
    await page.getByText(`${name} (WordPress)`).waitFor();
    await page.getByText("Never synced").waitFor();
    await page.getByRole("button", { name: "Sync orders" }).click();
    await expectToast(page, "Orders synced: 4 checked, 4 new");

    // The queue: the three open orders; their designs are still to download, so the film is not known yet
    await page.getByRole("link", { name: "Production" }).first().click();
    await page.getByRole("heading", { name: "Production", level: 1 }).waitFor();
    for (const n of ORDERS) await page.locator("tr").filter({ hasText: `#${n}` }).first().waitFor();
    await page.getByTestId("film-hint").getByText("5 designs still to download").waitFor();
    await page.locator(".ant-statistic").filter({ hasText: "Film (est.)" }).getByText("—").waitFor();
    await audit.check("production queue");

    // Batching rules: a 14:00 cut-off in Vienna, a 10 in film, processed automatically, labels on
    await page.getByRole("button", { name: "Batching rules" }).click();
    const drawer = page.locator(".ant-drawer-content");
    await drawer.getByText("When to batch").waitFor();
    await drawer.getByLabel("Film width (in)").fill("10");
    const cutoffs = drawer.getByLabel("Cut-off times (HH:MM)");
    await cutoffs.fill("14:00");
    await cutoffs.press("Enter");
    const zone = drawer.getByLabel("Time zone");
    await zone.fill(TZ); // typing into the search opens the list (the chosen value covers the input)
    await page.locator(".ant-select-item-option").filter({ hasText: TZ }).first().click();
    const autoProcess = drawer.getByRole("switch", { name: "Process batches automatically (uses credits)" });
    await autoProcess.click();
    if ((await autoProcess.getAttribute("aria-checked")) !== "true") throw new Error("auto-process did not turn on");
    const labels = drawer.getByRole("switch", { name: "Order labels beside every copy" });
    if ((await labels.getAttribute("aria-checked")) !== "true") await labels.click();
    await audit.check("batching rules");
    await drawer.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Batching rules saved");
    await page.getByText(`Batching at 14:00 (${TZ}); processed automatically`).waitFor();
    const saved = (await api("GET", "/production/settings")).body.data;
    if (saved.triggers.cutoffs.join() !== "14:00" || saved.timeZone !== TZ || !saved.autoProcess || !saved.labels || saved.sheet.width !== 10) throw new Error(`rules not saved: ${JSON.stringify(saved)}`);
    if ((await api("GET", "/production/batches")).body.data.length) throw new Error("a batch before the cut-off");

    // The clock moves to 14:00:05 in Vienna: the cut-off batches everything ready and processes it
    moveClock(nextWallTime(14, 0, 5, TZ) - Date.now());
    const batchRow = page.locator("tr").filter({ hasText: "Cut-off" });
    await batchRow.waitFor({ timeout: 60_000 });
    resetClock();
    await batchRow.getByText("Completed").waitFor({ timeout: 180_000 });
    await page.getByText("No order items waiting").waitFor();
    const [batch] = (await api("GET", "/production/batches")).body.data;
    if (batch.trigger !== "cutoff" || batch.orders !== 3 || batch.copies !== 7) throw new Error(`unexpected batch ${JSON.stringify(batch)}`);
    await shot("production-done-batched", { fullPage: true });
    await audit.check("production with the batch");

    // 375 px: nothing leaves the screen sideways
    await page.setViewportSize({ width: PHONE, height: 812 });
    await page.reload();
    await page.getByRole("heading", { name: "Production", level: 1 }).waitFor();
    await page.locator("tr, .ant-card").filter({ hasText: "Cut-off" }).first().waitFor();
    const wide = await page.evaluate((w) => {
      const off = [...document.querySelectorAll("button, a[href], input, [role=button]")]
        .filter((el) => el.checkVisibility())
        .map((el) => ({ t: (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 30), r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && (r.right > w + 0.5 || r.left < -0.5))
        .map(({ t }) => t);
      return { off, scrollWidth: document.documentElement.scrollWidth };
    }, PHONE);
    if (wide.scrollWidth > PHONE || wide.off.length) throw new Error(`off-screen at ${PHONE}px: ${JSON.stringify(wide)}`);
    await shot("production-done-phone", { fullPage: true });
    await page.setViewportSize({ width: 1366, height: 860 });

    // The batch's print: its files, with a label beside every copy
    await page.getByRole("link", { name: `Print ${batch.printId.slice(0, 8).toUpperCase()}` }).first().click();
    await page.waitForURL(`**/prints/${batch.printId}`);
    const files = page.getByTestId("print-detail-files");
    await files.waitFor();
    const print = (await api("GET", `/print/${batch.printId}`)).body.data;
    if (print.type !== "Batch" || print.status !== "Completed" || print.settings.orderLabels !== true) throw new Error(`unexpected print ${JSON.stringify({ type: print.type, status: print.status, settings: print.settings })}`);
    const [pngDownload] = await Promise.all([page.waitForEvent("download"), files.getByTestId("files-png").getByRole("link", { name: /^Download/ }).first().click()]);
    const pngPath = join(work, "sheet.png");
    await pngDownload.saveAs(pngPath);
    const preview = (await api("POST", `/print/${batch.printId}/preview`, {})).body.data;
    if (preview.sheets.length !== 1) throw new Error(`expected one sheet, got ${preview.sheets.length}`);
    const placements = preview.sheets[0].placements;
    if (placements.length !== 7 || placements.some((p) => !p.label)) throw new Error(`expected 7 labelled copies: ${JSON.stringify(placements.map((p) => p.label ?? null))}`);
    const dpi = print.settings.dpi;
    const { data, info } = await sharp(pngPath).raw().toBuffer({ resolveWithObject: true });
    for (const p of placements) {
      let dark = 0;
      let white = 0;
      const x0 = Math.floor(p.label.x * dpi);
      const x1 = Math.ceil((p.label.x + p.label.width) * dpi);
      const y0 = Math.floor(p.label.y * dpi);
      const y1 = Math.min(info.height, Math.ceil((p.label.y + p.label.height) * dpi));
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
          const i = (y * info.width + x) * info.channels;
          if (data[i + 3] !== 255) continue;
          if (data[i] < 90 && data[i + 1] < 90 && data[i + 2] < 90) dark++;
          else if (data[i] > 240 && data[i + 1] > 240 && data[i + 2] > 240) white++;
        }
      if (dark < 20 || white < 50) throw new Error(`no label at ${JSON.stringify(p.label)}: ${dark} dark, ${white} white pixels`);
    }

    // The packing list lists every order
    const [pdfDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("packing-list").getByRole("link", { name: "Download", exact: true }).click()]);
    const pdfPath = join(work, "packing-list.pdf");
    await pdfDownload.saveAs(pdfPath);
    const text = execFileSync("pdftotext", ["-layout", pdfPath, "-"]).toString("utf8");
    for (const n of ORDERS) if (!text.includes(n)) throw new Error(`packing list without order ${n}:\n${text}`);
    await shot("production-done-print", { fullPage: true });
    await audit.check("batch print");

    // Every order is completed in the shop, and the orders page says fulfilled
    const received = await waitFor(
      async () => {
        const got = await (await fetch(`${woo.baseUrl}/__fake/received`)).json();
        const done = new Set(got.statusUpdates.filter((u) => u.status === "completed").map((u) => String(u.orderId)));
        return ORDERS.every((n) => done.has(n)) && got;
      },
      { timeout: 60_000, what: "every order completed in the shop" },
    );
    if (received.statusUpdates.some((u) => String(u.orderId) === "1058")) throw new Error("the order completed in the shop before was updated");
    await page.goto("/orders");
    for (const n of ORDERS) await page.getByTestId(`fulfilment-${n}`).getByText("Fulfilled").waitFor({ timeout: 30_000 });
    await shot("production-done-orders");
    await audit.assertClean();
  } finally {
    resetClock();
    woo.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
