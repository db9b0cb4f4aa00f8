// Edge cases in the browser: a design wider than the sheet, the stored layout
// of a Completed print, the manual draft kept across tabs, the admin credit editor.
import { expectToast, grantCredits, settle, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

/** A signed-in seller with credits, a ready image and a size of `value` inches per entry of `sizes`. */
async function seller({ api, admin, createUser, login, context, baseUrl }, sizes) {
  const user = await createUser();
  const userId = await grantCredits({ api, admin }, user, 50);
  await login(user.email, user.password);
  const [image] = await uploadViaApi(context, baseUrl, [files.tiger()]);
  const made = [];
  for (const value of sizes) {
    const name = unique(`S${value}-`);
    const res = await api("POST", "/sizes", { name, value });
    if (res.status !== 201) throw new Error(`size ${res.status} ${JSON.stringify(res.body)}`);
    made.push({ ...res.body.data, label: `${name} (${value} Inches)` });
  }
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  return { user, userId, image, sizes: made };
}

test("edge cases: a design wider than the sheet is flagged on its line, left out of the cost, and Process is disabled", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const { image, sizes } = await seller({ api, admin, createUser, login, context, baseUrl }, [4, 40]);
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: sizes[0]._id, quantity: 2 }, { imageId: image._id, sizeId: sizes[1]._id, quantity: 3 }] });
  const print = created.body.data;
  await page.goto(`/prints/${print._id}`);
  const wide = page.locator(".ant-table-row").nth(1);
  await wide.getByTestId("item-problem").filter({ hasText: "does not fit a 22 x 100 in sheet" }).waitFor();
  if ((await page.locator(".ant-table-row").first().getByTestId("item-problem").count()) !== 0) throw new Error("the 4 in line fits");
  await page.getByTestId("layout-problems").waitFor();
  const process = page.getByRole("button", { name: "Process Print" });
  if (!(await process.isDisabled())) throw new Error("Process Print should be disabled while a design does not fit");
  // Only the 2 copies that fit are drawn and counted.
  await waitFor(async () => (await page.getByTestId("layout-design").count()) === 2, { what: "2 designs drawn" });
  if ((await page.getByTestId("layout-cost").innerText()).trim().endsWith("5")) throw new Error("the wide line must not be in the cost");
  await page.getByTestId("layout-cost").getByText("2", { exact: true }).waitFor();
  await process.hover({ force: true });
  await settle(page);
  await shot("detail-too-wide");
  // Fix the line (smaller size): the problem goes and Process is enabled.
  await api("PUT", `/print/${print._id}/${print.printItems[1]._id}`, { sizeId: sizes[0]._id });
  await page.reload();
  await waitFor(async () => (await page.getByTestId("layout-design").count()) === 5, { what: "5 designs once it fits" });
  if (await process.isDisabled()) throw new Error("Process Print should be enabled once every design fits");
});

test("edge cases: a Completed print shows the layout it was rendered with, not today's settings", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const { image, sizes } = await seller({ api, admin, createUser, login, context, baseUrl }, [4]);
  await api("PUT", "/sheet-settings", { width: 13 });
  const print = (await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: sizes[0]._id, quantity: 6 }] })).body.data;
  const started = await api("POST", `/print/${print._id}/process`, {});
  if (started.status !== 201) throw new Error(`process ${started.status} ${JSON.stringify(started.body)}`);
  await waitFor(async () => (await api("GET", `/print/${print._id}`)).body.data.status === "Completed", { what: "the job to complete", timeout: 90_000 });
  await api("PUT", "/sheet-settings", { width: 22 });
  await page.goto(`/prints/${print._id}`);
  await page.getByTestId("layout-rendered").waitFor();
  await page.locator('[data-testid="layout-sheet"] svg[aria-label^="Sheet 1: 13 by"]').waitFor();
  await settle(page);
  await shot("completed-as-rendered");
});

test("edge cases: the manual draft is kept in a new tab; a line too wide disables Create Print (Process)", async ({ page, context, baseUrl, admin, api, createUser, login }, testInfo) => {
  const { image, sizes } = await seller({ api, admin, createUser, login, context, baseUrl }, [4, 40]);
  await page.goto("/prints/manual-create?addPrint=true");
  const picker = page.locator(".ant-modal").filter({ hasText: "Add Item" });
  await picker.getByTestId("image-tile").first().click();
  const panel = picker.getByTestId("image-panel");
  await panel.getByRole("combobox", { name: "Size" }).click();
  await page.locator(".ant-select-dropdown:visible").getByText(sizes[0].label).click();
  await panel.locator(".ant-select-selection-item").filter({ hasText: sizes[0].label }).waitFor();
  await panel.getByRole("button", { name: "Add to print" }).click();
  await expectToast(page, "Image added to print");
  await picker.locator(".ant-modal-close").click();
  await page.locator(".ant-table-row").filter({ hasText: image.name }).waitFor();

  // Another tab (or the browser reopened): the draft is still there.
  const other = await context.newPage();
  await other.goto("/prints/manual-create");
  const row = other.locator(".ant-table-row").filter({ hasText: image.name });
  await row.waitFor();
  await other.getByTestId("layout-design").first().waitFor();
  // Change the line to the 40 in size: flagged on the line, Process disabled, Draft still allowed.
  await row.locator(".ant-select-selector").click();
  await other.locator(".ant-select-dropdown:visible").getByText(sizes[1].label).click();
  await row.getByTestId("item-problem").filter({ hasText: "does not fit" }).waitFor();
  if (!(await other.getByRole("button", { name: "Create Print (Process)" }).isDisabled())) throw new Error("Create Print (Process) should be disabled");
  if (await other.getByRole("button", { name: "Create Print (Draft)" }).isDisabled()) throw new Error("a draft can still be saved");
  await other.evaluate(() => window.scrollTo(0, 0));
  await other.waitForTimeout(500);
  await testInfo.attach("too-wide-in-a-new-tab", { body: await other.screenshot(), contentType: "image/png" });
  await other.close();
});

test("edge cases: the credit editor refuses -5 and saves nothing", async ({ page, adminLogin, api, shot }) => {
  await adminLogin();
  const me = (await api("GET", "/profile")).body.data;
  await page.goto(`/users?editCredit=${me._id}`);
  const modal = page.locator(".ant-modal").filter({ hasText: "Edit credit" });
  const field = modal.getByLabel("Available credits");
  await field.fill("-5");
  await field.blur();
  await modal.getByRole("button", { name: "Save" }).click();
  await modal.getByText("Available credits must be a positive integer").waitFor();
  if ((await field.inputValue()) !== "-5") throw new Error(`the typed value was changed to ${await field.inputValue()}`);
  await settle(page);
  await shot("credit-negative");
  if ((await api("GET", "/profile")).body.data.credit.availableCredits === 1) throw new Error("-5 was saved as 1");
});

test("edge cases: the header follows an admin's own new balance", async ({ page, adminLogin, api, shot }) => {
  await adminLogin();
  const me = (await api("GET", "/profile")).body.data;
  await page.getByTestId("credit-balance").waitFor();
  await page.goto(`/users?editCredit=${me._id}`);
  const modal = page.locator(".ant-modal").filter({ hasText: "Edit credit" });
  const field = modal.getByLabel("Available credits");
  const next = me.credit.availableCredits + 321;
  await field.fill(String(next));
  await modal.getByLabel("Reason").fill("Balance for the shop demo");
  await modal.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Credit added successfully");
  await page.getByTestId("credit-balance").filter({ hasText: `${next.toLocaleString("en-US")} credits` }).waitFor();
  await settle(page);
  await shot("header-balance");
});
