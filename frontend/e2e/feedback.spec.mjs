// What a new seller sees while working: toasts that keep clear of modal controls, a layout
// preview that loads instead of claiming there is nothing, the processing overlay from the
// first moment, 'Already Processed' on a done print, whole designs in equal tiles, live
// dashboard counts and an integrations form that offers only what the server can connect.
import Bull from "bull";
import { expectToast, grantCredits, settle, test, unique, waitFor } from "./fixtures.mjs";
import { pngImage, uploadViaApi } from "./images-fixtures.mjs";

const overlaps = (a, b) => a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("feedback: layout loads, toasts clear the Add Item controls, whole designs in equal tiles, overlay, Already Processed", async ({ page, context, baseUrl, admin, api, createUser, login, shot, queue }) => {
  const user = await createUser();
  await grantCredits({ api, admin }, user, 20);
  await login(user.email, user.password);
  // A tall and a wide design: a cropping thumbnail or a stretching tile shows at once.
  const [tall] = await uploadViaApi(context, baseUrl, [{ name: "tall.png", mimeType: "image/png", buffer: pngImage(300, 1200) }]);
  const [wide] = await uploadViaApi(context, baseUrl, [{ name: "wide.png", mimeType: "image/png", buffer: pngImage(1200, 300, [16, 185, 129]) }]);
  const sizeName = unique("Front");
  const size = (await api("POST", "/sizes", { name: sizeName, value: 3 })).body.data;
  for (const image of [tall, wide]) await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: tall._id, sizeId: size._id, quantity: 2 }] });
  if (created.status !== 201) throw new Error(`create ${created.status}`);
  const printId = created.body.data._id;

  // A slow layout answer: until it arrives the preview loads, it never says there are no items.
  await page.route("**/api/print/*/preview", async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue().catch(() => {});
  });
  await page.goto(`/prints/${printId}`);
  const preview = page.getByTestId("layout-preview");
  await preview.waitFor();
  const started = Date.now();
  while (Date.now() - started < 1500) {
    if ((await preview.innerText()).includes("Add items to see the layout.")) throw new Error("a draft with items showed 'Add items to see the layout.' while its layout loaded");
    await page.waitForTimeout(100);
  }
  await preview.getByTestId("layout-length").waitFor({ timeout: 20_000 });
  await page.unroute("**/api/print/*/preview");

  // The item's thumbnail shows the whole design.
  const thumbFit = await page.getByTestId("item-thumb").first().evaluate((img) => getComputedStyle(img).objectFit);
  if (thumbFit !== "contain") throw new Error(`the item thumbnail crops the design (object-fit ${thumbFit})`);

  // Add Item: tiles are equal squares showing whole designs; the toast keeps off the controls.
  await page.getByRole("button", { name: "Add Item" }).click();
  await page.waitForURL(/addPrint=true/);
  const picker = page.locator(".ant-modal").filter({ hasText: "Add Item" });
  const tiles = picker.getByTestId("image-tile");
  await tiles.nth(1).waitFor();
  await settle(page);
  const tileBoxes = await tiles.evaluateAll((els) =>
    els.map((el) => {
      const img = el.querySelector(".gs-tile__img");
      const pic = el.querySelector("img");
      return { height: el.getBoundingClientRect().height, imgW: img.getBoundingClientRect().width, imgH: img.getBoundingClientRect().height, fit: pic ? getComputedStyle(pic).objectFit : "contain" };
    }),
  );
  if (new Set(tileBoxes.map((b) => Math.round(b.height))).size !== 1) throw new Error(`tiles have uneven heights: ${JSON.stringify(tileBoxes)}`);
  if (tileBoxes.some((b) => Math.abs(b.imgW - b.imgH) > 1 || b.fit !== "contain")) throw new Error(`tile images are not whole designs in squares: ${JSON.stringify(tileBoxes)}`);
  await tiles.filter({ hasText: "wide" }).click();
  const panel = picker.getByTestId("image-panel");
  await panel.getByRole("combobox", { name: "Size" }).click();
  await page.locator(".ant-select-dropdown:visible").getByText(`${sizeName} (3 Inches)`).click();
  const addButton = panel.getByRole("button", { name: "Add to print" });
  await addButton.click();
  await expectToast(page, "Image added to print");
  const toastBox = await page.locator(".ant-notification-notice").filter({ hasText: "Image added to print" }).first().boundingBox();
  const controls = {
    size: await panel.getByRole("combobox", { name: "Size" }).locator("xpath=ancestor::div[contains(@class,'ant-select')][1]").boundingBox(),
    quantity: await panel.getByLabel("Quantity").boundingBox(),
    addToPrint: await addButton.boundingBox(),
    close: await picker.locator(".ant-modal-close").boundingBox(),
    title: await picker.locator(".ant-modal-title").boundingBox(),
  };
  for (const [name, box] of Object.entries(controls)) if (overlaps(toastBox, box)) throw new Error(`the toast covers the modal's ${name}`);
  await shot("add-item-toast");
  // Clicking straight away works: nothing lies over the button.
  await addButton.click();
  await picker.locator(".ant-modal-close").click();
  await page.waitForURL((u) => !u.searchParams.has("addPrint"));

  // Processing: the overlay shows its bar and "Waiting to start" before the job's first event.
  const prints = new Bull("prints", queue.redisUrl, { prefix: queue.prefix });
  await prints.pause();
  try {
    await page.getByRole("button", { name: "Process Print" }).click();
    await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
    const overlay = page.getByTestId("processing-overlay");
    await overlay.getByTestId("processing-progress").waitFor();
    await overlay.getByTestId("processing-stage").getByText("Waiting to start").waitFor();
    await settle(page);
    await shot("overlay-waiting");
  } finally {
    await prints.resume();
    await prints.close();
  }
  await page.locator(".ant-modal").filter({ hasText: "Print processed" }).waitFor({ timeout: 90_000 });
  await page.locator(".ant-modal").filter({ hasText: "Print processed" }).locator(".ant-modal-footer").getByRole("button", { name: "Close" }).click();

  // Completed: the process button says so.
  const done = page.getByRole("button", { name: "Already Processed" });
  await done.waitFor();
  if (!(await done.isDisabled())) throw new Error("'Already Processed' must be disabled");
  if (await page.getByRole("button", { name: "Process Print" }).count()) throw new Error("a completed print still offers 'Process Print'");
  await shot("completed-detail");
});

test("feedback: the dashboard's print counts move when a draft is created or deleted", async ({ page, context, baseUrl, api, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.email, user.password);
  const [image] = await uploadViaApi(context, baseUrl, [{ name: "dash.png", mimeType: "image/png", buffer: pngImage(400, 400) }]);
  const size = (await api("POST", "/sizes", { name: unique("Dash"), value: 2 })).body.data;
  await page.goto("/dashboard");
  const card = (label) => page.getByTestId("stat-card").filter({ hasText: label }).locator(".ant-statistic-content-value");
  await card("Pending Prints").getByText("0", { exact: true }).waitFor();
  // Made elsewhere (another tab, the API): this page must follow without a reload.
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] });
  if (created.status !== 201) throw new Error(`create ${created.status}`);
  await card("Pending Prints").getByText("1", { exact: true }).waitFor({ timeout: 10_000 });
  await card("Total Prints").getByText("1", { exact: true }).waitFor();
  await shot("dashboard-after-create");
  await api("DELETE", `/print/${created.body.data._id}/force`);
  await card("Pending Prints").getByText("0", { exact: true }).waitFor({ timeout: 10_000 });
  await card("Total Prints").getByText("0", { exact: true }).waitFor();
});

test("feedback: the integration form shows Etsy as unavailable with the reason; WooCommerce fields in words", async ({ page, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.email, user.password);
  await page.goto("/integrations?addIntegration=true");
  const modal = page.locator(".ant-modal").filter({ hasText: "Add Integration" });
  for (const label of ["Store URL", "Consumer key", "Consumer secret"]) await modal.getByLabel(label, { exact: true }).waitFor();
  await modal.getByText("WooCommerce → Settings → Advanced → REST API").waitFor();
  if (await modal.getByText(/baseUrl|consumerKey|consumerSecret/).count()) throw new Error("the form still shows raw key names");
  // The reason is on the form itself, not only on the disabled option.
  await modal.getByTestId("integration-type-reasons").getByText("Etsy is not set up on this server yet. Ask the administrator to connect the server's Etsy app.").waitFor();
  await modal.getByTestId("integration-type").click();
  const etsy = page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Etsy" });
  await etsy.getByText("Etsy (not available on this server)").waitFor();
  if (!(await etsy.getAttribute("class")).includes("ant-select-item-option-disabled")) throw new Error("Etsy must be disabled when the server cannot connect it");
  await settle(page);
  await shot("type-select");
  await etsy.click({ force: true });
  // A disabled option cannot be chosen: the form stays on WooCommerce.
  await modal.getByLabel("Store URL", { exact: true }).waitFor();
});
