// The layout editor on a true-shape print: every copy is drawn with its halo following the ink
// (the canvas reports data-outlines="ink"), two discs whose boxes overlap but whose ink keeps
// the gap are fine, and a disc dragged into another turns red at once (the editor's own check
// by ink, data-red) before the server's check agrees; screenshot of the collision in red.
import { grantCredits, settle, test, waitFor } from "./fixtures.mjs";
import { axeViolations } from "./axe.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

const SETTINGS = { width: 10, maxLength: 40, gap: 0.25, margin: 0.25, dpi: 100, rotate: true, nesting: "shape", formats: ["png"] };
const STATUS = /on sheet (\d+) at ([\d.]+), ([\d.]+) in/;

test("layout editor, true shape: halos follow the ink, a collision by ink is red at once", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const user = await createUser();
  await grantCredits({ api, admin }, user, 10);
  await login(user.email, user.password);
  const put = await api("PUT", "/sheet-settings", SETTINGS);
  if (put.status !== 200) throw new Error(`settings ${put.status} ${JSON.stringify(put.body)}`);
  const [disc] = await uploadViaApi(context, baseUrl, [files.disc()]);
  const size = (await api("POST", "/sizes", { name: "Two inch", value: 2 })).body.data;
  await waitFor(async () => (await api("GET", `/images/${disc._id}`)).body?.data?.status === "ready", { what: "image ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: disc._id, sizeId: size._id, quantity: 4 }] });
  if (created.status !== 201) throw new Error(`print ${created.status} ${JSON.stringify(created.body)}`);
  const printId = created.body.data._id;

  await page.goto(`/prints/${printId}`);
  await waitFor(async () => (await page.getByTestId("layout-preview").getByTestId("layout-design").count()) === 4, { what: "4 designs in the preview", timeout: 120_000 });
  await page.getByRole("button", { name: "Edit layout" }).click();
  const modal = page.locator(".ant-modal").filter({ hasText: "Edit layout" });
  const canvas = modal.getByTestId("layout-canvas");
  await canvas.locator("canvas").first().waitFor();
  await waitFor(async () => (await canvas.getAttribute("data-outlines")) === "ink", { what: "the outlines by ink" });
  const state = modal.getByTestId("layout-editor-state");
  await waitFor(async () => (await state.innerText()).includes("4 copies · no problems"), { what: "the editor's copies" });
  const status = modal.getByTestId("layout-editor-status");
  const red = async () => Number(await canvas.getAttribute("data-red"));

  const select = async (name) => {
    const box = modal.getByRole("combobox", { name: "Select a copy" });
    await box.click({ force: true });
    await box.fill(name);
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: new RegExp(`^${name}(\\.png)?( \\(pinned\\))?( — problem)?$`) }).first().click();
    const m = STATUS.exec(await status.innerText());
    if (!m) throw new Error(`no position in "${await status.innerText()}"`);
    return { sheet: Number(m[1]) - 1, x: Number(m[2]), y: Number(m[3]) };
  };
  const dragCopy = async (from, to) => {
    const box = await canvas.boundingBox();
    const a = await canvas.evaluate((el) => ({ ppi: Number(el.dataset.ppi), ox: Number(el.dataset.ox), oy: Number(el.dataset.oy), offsets: el.dataset.offsets.split(",").map(Number) }));
    const at = (sheet, x, y) => ({ x: box.x + a.ox + x * a.ppi, y: box.y + a.oy + (a.offsets[sheet] + y) * a.ppi });
    // grabbed at the disc's centre (on its ink)
    const p = at(from.sheet, from.x + 1, from.y + 1);
    const q = at(to.sheet, to.x + 1, to.y + 1);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move((p.x + q.x) / 2, (p.y + q.y) / 2, { steps: 6 });
    await page.mouse.move(q.x, q.y, { steps: 6 });
    await page.mouse.up();
  };
  const settled = async (what) => waitFor(async () => !(await state.innerText()).includes("Checking"), { what });

  // room to drag below the first row: zoomed out twice
  for (let i = 0; i < 2; i++) await modal.getByRole("button", { name: "Zoom out" }).click();
  // copy 1 to an empty spot, copy 2 diagonally beside it: the boxes overlap by 0.25 in, the discs are 0.47 in apart
  const c1 = await select("copy 1 of disc");
  await dragCopy(c1, { sheet: 0, x: 1, y: 3 });
  await waitFor(async () => /Moved copy 1 of disc/.test(await status.innerText()), { what: "the first drag" });
  const c2 = await select("copy 2 of disc");
  await dragCopy(c2, { sheet: 0, x: 2.75, y: 4.75 });
  await waitFor(async () => /Moved copy 2 of disc/.test(await status.innerText()), { what: "the second drag" });
  if ((await red()) !== 0) throw new Error(`boxes overlap but the ink keeps the gap, yet ${await red()} copies are red`);
  await settled("the server's check");
  if (!(await state.innerText()).includes("no problems")) throw new Error(`the server refused ink that keeps the gap: ${await state.innerText()}`);

  // copy 2 up beside copy 1: the discs' centres 1.82 in apart, closer than 2 in + the gap; red at once
  await dragCopy({ sheet: 0, x: 2.75, y: 4.75 }, { sheet: 0, x: 2.75, y: 3.5 });
  if ((await red()) !== 2) throw new Error(`expected both discs red at once, ${await red()} are`);
  await modal.getByTestId("layout-editor-problems").waitFor();
  if (!/copy 2 of disc(\.png)? is closer than the gap to copy 1 of disc|copy 1 of disc(\.png)? is closer than the gap to copy 2 of disc/.test(await modal.getByTestId("layout-editor-problems").innerText()))
    throw new Error(`the server does not name the pair: ${await modal.getByTestId("layout-editor-problems").innerText()}`);
  if (!(await modal.getByRole("button", { name: "Save layout" }).isDisabled())) throw new Error("Save must be refused while copies collide");
  await settle(page);
  test.info().annotations.push({ type: "screenshot", description: await shot("shape-editor-collision-in-red") });
  await page.screenshot({ path: "/tmp/layout-editor-shape-collision.png" });

  const violations = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
  if (violations.length) throw new Error(`axe: ${JSON.stringify(violations, null, 1)}`);
  await page.setViewportSize({ width: 375, height: 760 });
  await settle(page);
  const overflow = await page.evaluate(() => document.querySelector(".ant-modal")?.getBoundingClientRect().right ?? 0);
  if (overflow > 376) throw new Error(`the editor is ${overflow} px wide at 375 px`);
  await page.setViewportSize({ width: 1366, height: 860 });

  // undone: the diagonal pair again, which saves
  await canvas.locator("..").focus();
  await page.keyboard.press("Control+z");
  await waitFor(async () => (await red()) === 0, { what: "the collision undone" });
  await settled("the server's check after undo");
  await modal.getByRole("button", { name: "Save layout" }).click();
  await modal.waitFor({ state: "detached" });
  const saved = (await api("GET", `/print/${printId}/layout`)).body.data;
  if (saved.copies.length !== 4) throw new Error(`saved ${JSON.stringify(saved)}`);
});
