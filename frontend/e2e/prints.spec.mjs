// Prints: build a print from the library, see the live layout, process it for credits,
// wait for Completed over the socket, download a sheet PNG, delete the files and
// process again, then force delete.
import Bull from "bull";
import { dismissToasts, expectToast, grantCredits, settle, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

const PROCESSING = "Your images are being processed. Please wait for the process to complete. Don't worry, we will inform you by email after the process is complete.";

/** The page fetches a file link with its own cookies; returns status, type and the PNG header. */
const fetchInPage = (page, url) =>
  page.evaluate(async (u) => {
    const res = await fetch(u, { credentials: "include" });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const view = new DataView(bytes.buffer);
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      signature: Array.from(bytes.slice(0, 8)),
      width: bytes.length > 24 ? view.getUint32(16) : 0,
      height: bytes.length > 24 ? view.getUint32(20) : 0,
    };
  }, url);

test("prints: build from the library, live layout, process, download, delete and re-process", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
  const user = await createUser();

  // Credits come from an admin.
  const userId = await grantCredits({ api, admin }, user, 50);

  // Record socket.io frames so the test can tell the Completed event really came over the socket.
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => typeof f.payload === "string" && frames.push(f.payload)));

  await login(user.email, user.password);
  const [image] = await uploadViaApi(context, baseUrl, [files.tiger()], { score: "4" });
  const sizeName = unique("Chest");
  const size = await api("POST", "/sizes", { name: sizeName, value: 4 });
  if (size.status !== 201) throw new Error(`size ${size.status} ${JSON.stringify(size.body)}`);
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });

  // Empty list.
  await page.goto("/prints");
  await page.getByText("No prints found.").waitFor();
  await settle(page);
  await shot("empty-list");
  await page.getByRole("button", { name: "Create New Print" }).click();
  await page.waitForURL("**/prints/manual-create");

  // Manual create: both create buttons wait for an item.
  const draftButton = page.getByRole("button", { name: "Create Print (Draft)" });
  if (!(await draftButton.isDisabled())) throw new Error("Create Print (Draft) should be disabled with no items");
  await page.getByRole("button", { name: "Add Item" }).click();
  await page.waitForURL(/addPrint=true/);
  const picker = page.locator(".ant-modal").filter({ hasText: "Add Item" });
  await picker.getByTestId("image-tile").first().click();
  const panel = picker.getByTestId("image-panel");
  await panel.getByLabel("Quantity").fill("2");
  await panel.getByRole("combobox", { name: "Size" }).click();
  await page.locator(".ant-select-dropdown:visible").getByText(`${sizeName} (4 Inches)`).click();
  // The chosen size shows in the select, and the quantity survived any re-render.
  await panel.locator(".ant-select-selection-item").filter({ hasText: `${sizeName} (4 Inches)` }).waitFor();
  if ((await panel.getByLabel("Quantity").inputValue()) !== "2") await panel.getByLabel("Quantity").fill("2");
  await panel.getByRole("button", { name: "Add to print" }).click();
  await expectToast(page, "Image added to print");
  // The same image and size again adds to the quantity.
  await panel.getByRole("button", { name: "Add to print" }).click();
  await picker.locator(".ant-modal-close").click();
  await page.waitForURL((u) => !u.searchParams.has("addPrint"));
  const row = page.locator(".ant-table-row").filter({ hasText: image.name });
  await row.waitFor();
  if ((await page.locator(".ant-table-row").count()) !== 1) throw new Error("adding the same image+size should keep one line");
  if ((await row.getByLabel("Quantity").inputValue()) !== "4") throw new Error("quantity should be 2 + 2");
  // The live layout works before the print is saved.
  await page.getByTestId("layout-preview").getByTestId("layout-sheet").first().waitFor();
  await settle(page);
  await shot("manual-create");

  await draftButton.click();
  await expectToast(page, "Print Created Successfully");
  await page.waitForURL(/\/prints\/[0-9a-f-]{36}$/);
  const printId = page.url().split("/").pop();

  // Live layout: 4 copies of a 4 in design on a 22 in sheet.
  const preview = page.getByTestId("layout-preview");
  await preview.getByTestId("layout-sheet").first().waitFor();
  await waitFor(async () => (await preview.getByTestId("layout-design").count()) === 4, { what: "4 designs in the layout" });
  await preview.getByTestId("layout-density").waitFor();
  await settle(page);
  await shot("detail-preview");

  // Changing the quantity re-lays the sheet.
  const qty = page.locator(".ant-table-row").first().getByLabel("Quantity");
  await qty.fill("5");
  await qty.press("Enter");
  await waitFor(async () => (await preview.getByTestId("layout-design").count()) === 5, { what: "5 designs after the change" });
  const cost = (await preview.getByTestId("layout-cost").innerText()).replace(/\D/g, "");
  if (cost !== "5") throw new Error(`credit cost should be 5, got ${cost}`);

  // Sheet settings next to the preview re-lay it: narrow, short film gives several sheets.
  const settingsCard = page.getByTestId("sheet-settings");
  await settingsCard.getByLabel("Sheet width").fill("10");
  await settingsCard.getByLabel("Max length").fill("7");
  await waitFor(async () => (await preview.getByTestId("layout-sheet").count()) >= 2, { what: "several sheets on narrow film" });
  await waitFor(async () => (await preview.getByTestId("layout-design").count()) === 5, { what: "5 designs over the sheets" });
  await settle(page);
  await shot("narrow-film");
  await settingsCard.getByLabel("Sheet width").fill("22");
  await settingsCard.getByLabel("Max length").fill("100");
  await waitFor(async () => (await preview.getByTestId("layout-sheet").count()) === 1, { what: "one sheet again" });

  // Process: warning with cost and balance, overlay, then the success modal from the socket event.
  await page.getByRole("button", { name: "Process Print" }).click();
  await page.waitForURL(/printWarningModal=5/);
  const warning = page.locator(".ant-modal").filter({ hasText: "Process print" });
  await warning.getByTestId("warning-balance").getByText("50").waitFor();
  await settle(page);
  await shot("warning");
  // The print's reload after the request is held back until the job has ended, as on a quick
  // machine where the socket event beats it: the success modal must still stay open.
  let jobEnded;
  const ended = new Promise((res) => (jobEnded = res));
  const holdReload = async (route) => {
    if (route.request().method() === "GET") await ended;
    await route.continue();
  };
  await page.route(`**/api/print/${printId}`, holdReload);
  await warning.getByRole("button", { name: "Proceed" }).click();
  await page.getByText(PROCESSING).waitFor({ timeout: 10_000 }).catch(() => {}); // may be brief
  await waitFor(async () => (await api("GET", `/print/${printId}`)).body.data.status === "Completed", { what: "the job to complete", timeout: 90_000 });
  await page.waitForURL(/printSuccessModal=true/, { timeout: 30_000 });
  jobEnded(); // from here on the route passes everything through
  await page.waitForLoadState("networkidle");
  if (!frames.some((f) => f.includes(`"print-${userId}"`) && f.includes('"Completed"') && f.includes(printId)))
    throw new Error("no print-{userId} Completed event arrived over the socket");
  if (!frames.some((f) => f.includes(`"print-update-${userId}"`))) console.log("      (no print-update progress event for this small print)");
  const success = page.locator(".ant-modal").filter({ hasText: "Print processed" });
  const link = success.getByTestId("success-file").first().locator("a").first();
  await link.waitFor();
  await settle(page);
  await shot("success");
  const href = await link.getAttribute("href");
  const png = await fetchInPage(page, href);
  if (png.status !== 200 || png.signature.join(",") !== "137,80,78,71,13,10,26,10") throw new Error(`not a PNG: ${JSON.stringify(png)}`);
  if (png.width !== 22 * 300) throw new Error(`sheet should be 6600 px wide at 300 DPI, got ${png.width}`);
  await success.getByRole("button", { name: "Copy link" }).first().click();
  await expectToast(page, "Link copied to clipboard");
  await success.getByRole("button", { name: "Copied" }).waitFor();
  await success.getByRole("button", { name: "Copy link" }).first().waitFor({ timeout: 4000 });
  await success.getByRole("button", { name: "Close" }).last().click();
  await page.waitForURL((u) => !u.searchParams.has("printSuccessModal") && !u.searchParams.has("filePath"));
  const balance = await api("GET", "/profile");
  if (balance.body.data.credit.availableCredits !== 45) throw new Error(`balance should be 45, got ${balance.body.data.credit.availableCredits}`);

  await page.getByTestId("print-status").getByText("Completed").waitFor();
  await page.getByRole("button", { name: "Share File" }).waitFor();
  if (!(await page.getByRole("button", { name: "Add Item" }).isDisabled())) throw new Error("Add Item must be disabled when Completed");
  await page.getByTestId("retention").getByText("7 days left").waitFor();
  await settle(page);
  await shot("completed");

  // Delete the files only: the print stays as Deleted and can be processed again.
  await dismissToasts(page);
  await page.getByRole("button", { name: /Delete$/ }).click();
  await page.waitForURL(/deletePrint=/);
  const del = page.locator(".ant-modal").filter({ hasText: "Force Delete" });
  await del.getByRole("button", { name: "Delete", exact: true }).click();
  await expectToast(page, "Print Deleted Successfully");
  await page.getByTestId("print-status").getByText("Deleted").waitFor();
  if (await page.getByRole("button", { name: "Share File" }).count()) throw new Error("Share File only when Completed");
  const gone = await fetchInPage(page, href);
  if (gone.status === 200) throw new Error("the deleted file must not download");

  await page.getByRole("button", { name: "Process Print" }).click();
  await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
  await page.waitForURL(/printSuccessModal=true/, { timeout: 90_000 });
  await page.locator(".ant-modal").filter({ hasText: "Print processed" }).getByRole("button", { name: "Close" }).last().click();

  // Duplicate (a reprint): a new draft with the same items opens; the processed print stays.
  const itemRows = await page.locator(".ant-table-row").count();
  await page.getByRole("button", { name: "Duplicate" }).click();
  await expectToast(page, "Print duplicated");
  await page.waitForURL((u) => /\/prints\/[0-9a-f-]{36}$/.test(u.pathname) && !u.pathname.endsWith(printId));
  const dupId = new URL(page.url()).pathname.split("/").pop();
  await page.getByTestId("print-status").getByText("In Draft").waitFor();
  // the draft never shows the source's rendered layout, not even while its own loads
  if (await page.getByTestId("layout-rendered").count()) throw new Error("the duplicate shows another print's rendered layout");
  await page.locator(".ant-table-row").nth(itemRows - 1).waitFor();
  if ((await page.locator(".ant-table-row").count()) !== itemRows) throw new Error(`the duplicate should have ${itemRows} items`);
  await shot("duplicate");
  const removed = await api("DELETE", `/print/${dupId}/force`);
  if (removed.status !== 200) throw new Error(`force delete of the duplicate: ${removed.status}`);

  // The list: Completed, 'Already Processed' disabled, retention in green.
  await page.goto("/prints?status=Completed");
  const listRow = page.locator(".ant-table-row").filter({ hasText: printId.slice(0, 8).toUpperCase() });
  await listRow.waitFor();
  if (!(await listRow.getByRole("button", { name: "Already Processed" }).isDisabled())) throw new Error("Already Processed must be disabled");
  if ((await listRow.getByTestId("retention").getAttribute("data-color")) !== "green") throw new Error("7 days left should be green");
  await shot("list");

  // Filters live in the URL: Etsy shows nothing; a printed-date range around today finds it.
  await page.goto("/prints?type=Etsy");
  await page.getByText("No prints found.").waitFor();
  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`/prints?dateType=printedAt&startDate=${today}&endDate=${today}`);
  await page.locator(".ant-table-row").filter({ hasText: printId.slice(0, 8).toUpperCase() }).waitFor();
  await page.goto("/prints?dateType=printedAt&startDate=2001-01-01&endDate=2001-01-31");
  await page.getByText("No prints found.").waitFor();

  // Force delete from the list removes the print.
  await page.goto("/prints");
  await page.locator(".ant-table-row").filter({ hasText: printId.slice(0, 8).toUpperCase() }).getByRole("button", { name: /Delete print/ }).click();
  await page.locator(".ant-modal").filter({ hasText: "Force Delete" }).getByRole("button", { name: "Force Delete" }).click();
  await expectToast(page, "Print Deleted Successfully");
  await page.getByText("No prints found.").waitFor();
  const after = await api("GET", `/print/${printId}`);
  if (after.status !== 404) throw new Error(`force-deleted print should be 404, got ${after.status}`);

  // Manual create straight to processing: the warning shows the total quantity.
  await page.goto("/prints/manual-create?addPrint=true");
  const picker2 = page.locator(".ant-modal").filter({ hasText: "Add Item" });
  await picker2.getByTestId("image-tile").first().click();
  const panel2 = picker2.getByTestId("image-panel");
  await panel2.getByLabel("Quantity").fill("3");
  await panel2.getByRole("combobox", { name: "Size" }).click();
  await page.locator(".ant-select-dropdown:visible").getByText(`${sizeName} (4 Inches)`).click();
  await panel2.getByRole("button", { name: "Add to print" }).click();
  await picker2.locator(".ant-modal-close").click();
  await page.getByRole("button", { name: "Create Print (Process)" }).click();
  await page.waitForURL(/printWarningModal=3/);
  await page.getByTestId("warning-quantity").getByText("3").waitFor();
  await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
  await expectToast(page, "Print Created Successfully");
  await page.waitForURL(/\/prints\/[0-9a-f-]{36}\?.*printSuccessModal=true/, { timeout: 90_000 });
  await page.locator(".ant-modal").filter({ hasText: "Print processed" }).getByTestId("success-file").first().waitFor();

  // Sheet settings on the profile: a default and a preset.
  await page.goto("/profile");
  const card = page.locator(".ant-card").filter({ hasText: "Sheet Settings" });
  await card.getByLabel("Gap").fill("0.5");
  await card.getByRole("button", { name: "Save as default" }).click();
  await expectToast(page, "Sheet settings saved");
  const saved = await api("GET", "/sheet-settings");
  if (saved.body.data.gap !== 0.5) throw new Error(`gap should be saved as 0.5, got ${saved.body.data.gap}`);
  await card.getByLabel("Preset name").fill("Narrow film");
  // Toasts stack over the bottom-right of the card: use the keyboard.
  await card.getByRole("button", { name: "Save preset" }).press("Enter");
  await expectToast(page, "Preset saved");
  const presets = await api("GET", "/sheet-presets");
  if (!presets.body.data.some((p) => p.name === "Narrow film" && p.gap === 0.5)) throw new Error("preset not saved");
  await card.scrollIntoViewIfNeeded();
  await settle(page);
  await shot("profile-sheet-settings");
});

test("prints: cancel processing from the overlay refunds and returns the print to draft", async ({ page, context, baseUrl, admin, api, createUser, login, shot, queue }) => {
  const user = await createUser();
  await grantCredits({ api, admin }, user, 10);
  await login(user.email, user.password);
  const [image] = await uploadViaApi(context, baseUrl, [files.tiger()]);
  const size = await api("POST", "/sizes", { name: unique("Pocket"), value: 3 });
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size.body.data._id, quantity: 4 }] });
  if (created.status !== 201) throw new Error(`create ${created.status}`);
  const printId = created.body.data._id;

  // Every worker of the queue paused: the job waits, as behind a long queue.
  const prints = new Bull("prints", queue.redisUrl, { prefix: queue.prefix });
  await prints.pause();
  try {
    await page.goto(`/prints/${printId}`);
    await page.getByRole("button", { name: "Process Print" }).click();
    await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
    const overlay = page.getByTestId("processing-overlay");
    await overlay.getByText(PROCESSING).waitFor();
    await overlay.getByRole("button", { name: "Cancel processing" }).waitFor();
    await page.getByTestId("credit-balance").getByText("6 credits").waitFor();
    await settle(page);
    await shot("processing-overlay");
    await overlay.getByRole("button", { name: "Cancel processing" }).click();
    await expectToast(page, "Processing cancelled. The print is back in draft and your credits were refunded.");
    await overlay.waitFor({ state: "detached" });
    await page.getByTestId("print-status").getByText("In Draft").waitFor();
    await page.getByTestId("credit-balance").getByText("10 credits").waitFor();
    if (await page.getByRole("button", { name: "Process Print" }).isDisabled()) throw new Error("a cancelled print can be processed again");
    await prints.resume();
    // The job that waited runs now and must leave the cancelled print alone.
    await waitFor(async () => (await (await prints.getJob(`print:${printId}:1`))?.getState()) === "completed", { what: "the waiting job to run" });
    const after = await api("GET", `/print/${printId}`);
    if (after.body.data.status !== "In Draft") throw new Error(`the waiting job must skip a cancelled print, got ${after.body.data.status}`);
  } finally {
    await prints.resume().catch(() => {});
    await prints.close();
  }
});
