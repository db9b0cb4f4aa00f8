// Dashboard, bell and live updates: a print processed while the list is open changes its
// status and the bell's count without a reload; the dashboard shows the true numbers.
import { grantCredits, settle, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

const card = (page, label) => page.getByTestId("stat-card").filter({ hasText: label });
const cardValue = async (page, label) => Number((await card(page, label).locator(".ant-statistic-content-value").innerText()).replace(/\D/g, ""));
const bellCount = async (page) => Number((await page.getByTestId("notification-bell").getAttribute("aria-label")).replace(/\D/g, ""));

test("live: dashboard numbers, print status and bell count change as the print is processed", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const user = await createUser();
  // An admin adds credit: the user's first notification.
  await grantCredits({ api, admin }, user, 20);
  await login(user.email, user.password);

  // Fresh account: zeros everywhere, one unread notification.
  await card(page, "Total Prints").waitFor();
  await waitFor(async () => (await cardValue(page, "Total Prints")) === 0 && (await bellCount(page)) === 1, { what: "fresh dashboard and a bell count of 1" });
  for (const label of ["Pending Prints", "Printed Images", "Used Credits", "Pending Orders", "Total Orders", "Printed Orders", "Integrations"])
    if ((await cardValue(page, label)) !== 0) throw new Error(`${label} should be 0 on a fresh account`);
  await settle(page);
  await shot("dashboard-fresh");

  // A print to process.
  const [image] = await uploadViaApi(context, baseUrl, [files.tiger()], { score: "3" });
  const size = await api("POST", "/sizes", { name: unique("Front"), value: 3 });
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size.body.data._id, quantity: 2 }] });
  if (created.status !== 201) throw new Error(`create print ${created.status} ${JSON.stringify(created.body)}`);
  const printId = created.body.data._id;

  // Dashboard card click-through: Pending Prints → the drafts.
  await page.reload();
  await waitFor(async () => (await cardValue(page, "Pending Prints")) === 1, { what: "Pending Prints 1" });
  await card(page, "Pending Prints").click();
  await page.waitForURL((u) => u.pathname === "/prints" && u.searchParams.get("status") === "In Draft");
  const status = page.locator(".ant-table-row").first().getByTestId("print-status");
  await status.filter({ hasText: "In Draft" }).waitFor();
  await page.goto("/prints");
  await page.locator(".ant-table-row").first().getByTestId("print-status").filter({ hasText: "In Draft" }).waitFor();

  // Process it from outside the page; the list and the bell must follow without a reload.
  let navigations = 0;
  page.on("framenavigated", (f) => f === page.mainFrame() && navigations++);
  const processed = await api("POST", `/print/${printId}/process`, {});
  if (processed.status !== 201) throw new Error(`process ${processed.status} ${JSON.stringify(processed.body)}`);
  await page.locator(".ant-table-row").first().getByTestId("print-status").filter({ hasText: "Completed" }).waitFor({ timeout: 90_000 });
  await waitFor(async () => (await bellCount(page)) === 2, { what: "the bell to count the print's notification" });
  if (navigations) throw new Error("the page reloaded; the status and count must arrive live");
  await settle(page);
  await shot("list-completed-live");

  // The panel: newest first, mark read by clicking through to the print.
  await page.getByTestId("notification-bell").click();
  const items = page.getByTestId("notification-item");
  await items.first().waitFor();
  const first = await items.first().innerText();
  if (!first.includes(`Print ${printId.slice(0, 8).toUpperCase()} is ready`)) throw new Error(`newest notification should name the print, got ${first}`);
  await settle(page);
  await shot("bell-panel");
  await items.first().click();
  await page.waitForURL(`**/prints/${printId}`);
  await waitFor(async () => (await bellCount(page)) === 1, { what: "the bell to count 1 after reading one" });
  // Mark all read clears the count; delete removes a row.
  await page.getByTestId("notification-bell").click();
  await page.getByRole("button", { name: "Mark all read" }).click();
  await waitFor(async () => (await bellCount(page)) === 0, { what: "the bell to clear" });
  const before = await items.count();
  await items.first().getByRole("button", { name: "Delete notification" }).click();
  await waitFor(async () => (await items.count()) === before - 1, { what: "a deleted notification to leave the panel" });
  await page.keyboard.press("Escape");

  // The dashboard now tells the truth.
  await page.goto("/dashboard");
  await waitFor(async () => (await cardValue(page, "Total Prints")) === 1 && (await cardValue(page, "Pending Prints")) === 0, { what: "print counts after processing" });
  const used = await cardValue(page, "Used Credits");
  if (used !== 2) throw new Error(`Used Credits should be 2 (one per copy), got ${used}`);
  if ((await cardValue(page, "Printed Images")) !== 1) throw new Error("Printed Images should be 1");
  await settle(page);
  await shot("dashboard-after");
});
