// The layout editor on the print detail: a seller drags one copy to a chosen spot, turns and
// nudges another with the keyboard, pins both, re-nests the rest around them, saves and
// processes; the delivered PNG has those copies exactly where the editor showed them, and no
// two copies come closer than the gap. On the way: a collision shown in red (screenshot),
// undone with Ctrl+Z; axe finds nothing serious; the editor fits a 375 px wide phone.
import sharp from "sharp";
import { grantCredits, settle, test, waitFor } from "./fixtures.mjs";
import { axeViolations } from "./axe.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

const SETTINGS = { width: 10, maxLength: 40, gap: 0.25, margin: 0.25, dpi: 100, rotate: true, nesting: "box", formats: ["png"] };
const STATUS = /on sheet (\d+) at ([\d.]+), ([\d.]+) in/;

test("layout editor: drag, turn, nudge, pin, re-nest, save and process; the file matches", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const user = await createUser();
  await grantCredits({ api, admin }, user, 40);
  await login(user.email, user.password);
  const put = await api("PUT", "/sheet-settings", SETTINGS);
  if (put.status !== 200) throw new Error(`settings ${put.status} ${JSON.stringify(put.body)}`);
  const [tiger] = await uploadViaApi(context, baseUrl, [files.tiger()]);
  const [lotus] = await uploadViaApi(context, baseUrl, [files.lotus()]);
  const size = (await api("POST", "/sizes", { name: "Two inch", value: 2 })).body.data;
  for (const im of [tiger, lotus]) await waitFor(async () => (await api("GET", `/images/${im._id}`)).body?.data?.status === "ready", { what: "images ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: tiger._id, sizeId: size._id, quantity: 4 }, { imageId: lotus._id, sizeId: size._id, quantity: 4 }] });
  if (created.status !== 201) throw new Error(`print ${created.status} ${JSON.stringify(created.body)}`);
  const printId = created.body.data._id;

  await page.goto(`/prints/${printId}`);
  await waitFor(async () => (await page.getByTestId("layout-preview").getByTestId("layout-design").count()) === 8, { what: "8 designs in the preview", timeout: 120_000 });
  await page.getByRole("button", { name: "Edit layout" }).click();
  const modal = page.locator(".ant-modal").filter({ hasText: "Edit layout" });
  const canvas = modal.getByTestId("layout-canvas");
  await canvas.locator("canvas").first().waitFor();
  await waitFor(async () => (await modal.getByTestId("layout-editor-state").innerText()).includes("8 copies"), { what: "the editor's copies" });
  const status = modal.getByTestId("layout-editor-status");

  const select = async (name) => {
    const box = modal.getByRole("combobox", { name: "Select a copy" });
    await box.click({ force: true });
    await box.fill(name);
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: new RegExp(`^${name}(\\.png)?( \\(pinned\\))?( — problem)?$`) }).first().click();
    // the status line names the copy once the selection has rendered; read before that, it
    // still shows the previous copy's position
    const selected = new RegExp(`^Selected ${name}(\\.png)? on sheet`);
    await waitFor(async () => selected.test(await status.innerText()), { what: `${name} selected` });
    const m = STATUS.exec(await status.innerText());
    if (!m) throw new Error(`no position in "${await status.innerText()}"`);
    return { sheet: Number(m[1]) - 1, x: Number(m[2]), y: Number(m[3]) };
  };
  const mapping = async () => {
    const box = await canvas.boundingBox();
    const a = await canvas.evaluate((el) => ({ ppi: Number(el.dataset.ppi), ox: Number(el.dataset.ox), oy: Number(el.dataset.oy), offsets: el.dataset.offsets.split(",").map(Number) }));
    return { at: (sheet, x, y) => ({ x: box.x + a.ox + x * a.ppi, y: box.y + a.oy + (a.offsets[sheet] + y) * a.ppi }) };
  };
  const dragCopy = async (from, to) => {
    const m = await mapping();
    const a = m.at(from.sheet, from.x + 0.3, from.y + 0.3);
    const b = m.at(to.sheet, to.x + 0.3, to.y + 0.3);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
    await page.mouse.move(b.x, b.y, { steps: 6 });
    await page.mouse.up();
  };
  const key = async (k, times = 1) => {
    await canvas.locator("..").focus();
    for (let i = 0; i < times; i++) await page.keyboard.press(k);
  };

  // 1. a collision, shown in red at once: drag copy 1 of lotus onto copy 1 of tiger
  const t1 = await select("copy 1 of tiger");
  const l1 = await select("copy 1 of lotus");
  await dragCopy(l1, { sheet: t1.sheet, x: t1.x + 0.4, y: t1.y + 0.2 });
  await modal.getByTestId("layout-editor-problems").waitFor();
  if (!(await modal.getByRole("button", { name: "Save layout" }).isDisabled())) throw new Error("Save must be refused while copies collide");
  const problems = await modal.getByTestId("layout-editor-problems").innerText();
  if (!/copy 1 of lotus(\.png)? is closer than the gap to copy 1 of tiger|copy 1 of tiger(\.png)? is closer than the gap to copy 1 of lotus/.test(problems)) throw new Error(`problems: ${problems}`);
  await settle(page);
  const red = await shot("editor-collision-in-red");
  await page.screenshot({ path: "/tmp/layout-editor-collision.png" });
  test.info().annotations.push({ type: "screenshot", description: red });
  // undone with Ctrl+Z: the problem goes
  await key("Control+z");
  await modal.getByTestId("layout-editor-problems").waitFor({ state: "detached" });

  // 2. drag copy 1 of tiger to a chosen spot low on the sheet, pin it
  await select("copy 1 of tiger");
  await dragCopy(t1, { sheet: 0, x: 6, y: 3.5 });
  await waitFor(async () => /Moved copy 1 of tiger/.test(await status.innerText()), { what: "the drag to land" });
  const dragged = await select("copy 1 of tiger");
  if (dragged.sheet !== 0 || Math.abs(dragged.x - 6) > 0.05 || Math.abs(dragged.y - 3.5) > 0.05) throw new Error(`dragged to ${JSON.stringify(dragged)}`);
  await key("p");

  // 3. turn copy 2 of tiger and move it with the keyboard (Shift: 1/2 in, plain: 1/16 in), pin it
  const t2start = await select("copy 2 of tiger");
  await key("r");
  // down below the others and to the left edge, then 3/16 in right
  await key("Shift+ArrowDown", Math.max(0, Math.ceil((5.5 - t2start.y) / 0.5)));
  const left = Math.max(0, Math.floor((t2start.x + 0.25 - 0.5) / 0.5));
  await key("Shift+ArrowLeft", left);
  await key("ArrowRight", 3);
  const t2 = await select("copy 2 of tiger");
  if (!/turned 90°/.test(await status.innerText())) throw new Error(`not turned: ${await status.innerText()}`);
  await key("p");
  if (Math.abs(t2.x - (t2start.x + (2 - 1.5) / 2 - left * 0.5 + 3 / 16)) > 0.02) throw new Error(`nudged to ${t2.x}, from ${t2start.x}`);

  // 4. re-nest the rest around the two pinned copies
  // the whole layout shown goes along: the pinned copies stay, the rest is where the search starts
  const renestRequest = page.waitForRequest((r) => r.url().endsWith("/layout/renest") && r.method() === "POST");
  await modal.getByRole("button", { name: "Re-nest the rest" }).click();
  const sent = JSON.parse((await renestRequest).postData() ?? "{}").copies ?? [];
  if (sent.length !== 8 || sent.filter((c) => c.pinned).length !== 2) throw new Error(`re-nest sent ${sent.length} copies, ${sent.filter((c) => c.pinned).length} pinned`);
  await waitFor(async () => /Re-nested 6 copies around 2 pinned/.test(await status.innerText()), { what: "the re-nest" });
  const p1 = await select("copy 1 of tiger");
  const p2 = await select("copy 2 of tiger");
  if (JSON.stringify([p1.x, p1.y]) !== JSON.stringify([dragged.x, dragged.y]) || JSON.stringify([p2.x, p2.y]) !== JSON.stringify([t2.x, t2.y]))
    throw new Error(`pinned copies moved: ${JSON.stringify({ p1, dragged, p2, t2 })}`);
  if (!/8 copies · no problems/.test(await modal.getByTestId("layout-editor-state").innerText())) throw new Error(await modal.getByTestId("layout-editor-state").innerText());

  // accessible, and usable on a phone
  const violations = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
  if (violations.length) throw new Error(`axe: ${JSON.stringify(violations, null, 1)}`);
  await page.setViewportSize({ width: 375, height: 760 });
  await settle(page);
  await page.screenshot({ path: "/tmp/layout-editor-375.png" });
  const overflow = await page.evaluate(() => document.querySelector(".ant-modal")?.getBoundingClientRect().right ?? 0);
  if (overflow > 376) throw new Error(`the editor is ${overflow} px wide at 375 px`);
  await modal.getByRole("button", { name: "Save layout" }).scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1366, height: 860 });

  // 5. save, process
  await modal.getByRole("button", { name: "Save layout" }).click();
  await modal.waitFor({ state: "detached" });
  await page.getByTestId("layout-edited").waitFor();
  const saved = (await api("GET", `/print/${printId}/layout`)).body.data;
  const pinned = saved.copies.filter((c) => c.pinned);
  if (pinned.length !== 2) throw new Error(`pinned: ${JSON.stringify(pinned)}`);
  await page.getByRole("button", { name: "Process Print" }).click();
  await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
  await page.waitForURL(/printSuccessModal=true/, { timeout: 120_000 });
  const done = (await api("GET", `/print/${printId}`)).body.data;
  if (done.status !== "Completed") throw new Error(`status ${done.status}`);

  // 6. the PNG: every copy inked where saved (the pinned ones where the seller put them), none closer than the gap
  const res = await context.request.fetch(`${baseUrl}${done.fileId[0].path}`, { headers: { "X-Requested-With": "XMLHttpRequest" } });
  const { data, info } = await sharp(await res.body()).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const dpi = SETTINGS.dpi;
  const px = (v) => Math.round(v * dpi);
  const at = (x, y) => data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 4);
  // opaque from the copy's first pixel row and column, transparent one pixel before them: to the pixel
  for (const c of saved.copies) {
    const [x0, y0, w, h] = [px(c.x), px(c.y), px(c.width), px(c.height)];
    for (const [x, y] of [[x0, y0], [x0 + w - 1, y0 + h - 1], [x0 + (w >> 1), y0 + (h >> 1)]])
      if (at(x, y)[3] < 200) throw new Error(`copy ${c.copy} of ${c.itemId}: no ink at ${x},${y}`);
    if (at(x0 - 1, y0 + (h >> 1))[3] !== 0 || at(x0 + (w >> 1), y0 - 1)[3] !== 0) throw new Error(`copy ${c.copy} of ${c.itemId}: ink before ${x0},${y0}`);
  }
  const near = (c, p) => Math.abs(c.x - p.x) < 1e-6 && Math.abs(c.y - p.y) < 1e-6;
  if (!pinned.some((c) => near(c, dragged)) || !pinned.some((c) => near(c, t2) && c.rotation === 90)) throw new Error(`pinned copies not where the editor showed them: ${JSON.stringify({ pinned, dragged, t2 })}`);
  const gap = px(SETTINGS.gap);
  const boxes = saved.copies.map((c) => ({ x: px(c.x), y: px(c.y), w: px(c.width), h: px(c.height) }));
  for (let i = 0; i < boxes.length; i++)
    for (let j = 0; j < i; j++) {
      const [p, q] = [boxes[i], boxes[j]];
      if (!(p.x + p.w + gap <= q.x || q.x + q.w + gap <= p.x || p.y + p.h + gap <= q.y || q.y + q.h + gap <= p.y)) throw new Error(`copies ${i} and ${j} closer than the gap`);
    }
  await shot("processed");
});
