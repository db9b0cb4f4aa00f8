// Sheet templates: a seller saves an edited print's layout as a template from the layout
// editor, finds it on the Templates page (with a drawing of its slots), starts a new print
// from it with other artwork (a size too large for its slot is refused, naming the slot), and
// lands on the draft whose saved layout has each copy in its slot. On the way: the empty
// state, axe on the page and the modal, and the page at 375 px.
import { settle, test, waitFor } from "./fixtures.mjs";
import { axeViolations } from "./axe.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

const SETTINGS = { width: 10, maxLength: 40, gap: 0.25, margin: 0.25, dpi: 100, rotate: true, nesting: "box", formats: ["png"] };

const serious = async (page) => (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");

test("templates: save an edited sheet as a template, start a new print from it with other artwork in the same slots", async ({ page, context, baseUrl, api, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.email, user.password);
  const put = await api("PUT", "/sheet-settings", SETTINGS);
  if (put.status !== 200) throw new Error(`settings ${put.status} ${JSON.stringify(put.body)}`);
  const [tiger] = await uploadViaApi(context, baseUrl, [files.tiger()]);
  const [lotus] = await uploadViaApi(context, baseUrl, [files.lotus()]);
  const [disc] = await uploadViaApi(context, baseUrl, [files.disc()]);
  const two = (await api("POST", "/sizes", { name: "Two inch", value: 2 })).body.data;
  const one = (await api("POST", "/sizes", { name: "One inch", value: 1 })).body.data;
  for (const im of [tiger, lotus, disc]) await waitFor(async () => (await api("GET", `/images/${im._id}`)).body?.data?.status === "ready", { what: "images ready" });

  // an edited print: the tiger at the top left, the lotus turned on the right
  const created = await api("POST", "/print", { printItems: [{ imageId: tiger._id, sizeId: two._id, quantity: 1 }, { imageId: lotus._id, sizeId: two._id, quantity: 1 }] });
  if (created.status !== 201) throw new Error(`print ${created.status} ${JSON.stringify(created.body)}`);
  const source = created.body.data;
  const itemOf = (imageId) => source.printItems.find((i) => i.imageId === imageId)._id;
  const saved = await api("PUT", `/print/${source._id}/layout`, {
    settings: SETTINGS,
    copies: [
      { itemId: itemOf(tiger._id), copy: 0, sheet: 0, x: 1, y: 1, rotation: 0 },
      { itemId: itemOf(lotus._id), copy: 0, sheet: 0, x: 5, y: 3, rotation: 90 },
    ],
  });
  if (saved.status !== 200) throw new Error(`layout ${saved.status} ${JSON.stringify(saved.body)}`);

  // 1. no templates yet: the empty state says how to make one
  await page.goto("/templates");
  await page.getByTestId("templates-empty").waitFor();
  if (!/Save as template/.test(await page.getByTestId("templates-empty").innerText())) throw new Error("the empty state does not say how to make a template");

  // 2. the layout editor's "Save as template"
  await page.goto(`/prints/${source._id}`);
  await page.getByTestId("layout-edited").waitFor({ timeout: 120_000 });
  await page.getByRole("button", { name: "Edit layout" }).click();
  const editor = page.locator(".ant-modal").filter({ hasText: "Edit layout" });
  await waitFor(async () => (await editor.getByTestId("layout-editor-state").innerText()).includes("2 copies · no problems"), { what: "the editor's copies" });
  await editor.getByRole("button", { name: "Save as template" }).click();
  const save = page.locator(".ant-modal").filter({ hasText: "Template name" });
  await save.getByLabel("Template name").fill("Team set: front and back");
  await settle(page);
  if ((await serious(page)).length) throw new Error(`axe (save as template): ${JSON.stringify(await serious(page), null, 1)}`);
  await save.getByRole("button", { name: "Save template" }).click();
  const done = page.locator(".ant-modal").filter({ hasText: "is saved." });
  await done.waitFor();
  await done.getByRole("button", { name: "Done" }).click();
  await editor.getByRole("button", { name: "Cancel" }).click();
  await editor.waitFor({ state: "detached" });
  const list = (await api("GET", "/templates")).body;
  if (list.pagination.totalDocuments !== 1) throw new Error(`templates: ${JSON.stringify(list)}`);
  const template = list.data[0];
  if (template.slots.length !== 2 || template.slots[0].label !== "tiger" || template.slots[1].rotation !== 90) throw new Error(`slots: ${JSON.stringify(template.slots)}`);

  // 3. the Templates page, from the sidebar: a row with the drawing of the slots
  await page.getByRole("menuitem", { name: /Templates/ }).first().click();
  await page.waitForURL(/\/templates/);
  const row = page.locator(".ant-table-row").filter({ hasText: "Team set: front and back" });
  await row.waitFor();
  if ((await row.getByTestId("template-drawing").locator("rect").count()) !== 3) throw new Error("the drawing has not the sheet and its 2 slots");
  await settle(page);
  await shot("templates-list");
  if ((await serious(page)).length) throw new Error(`axe (templates): ${JSON.stringify(await serious(page), null, 1)}`);

  // 4. new print from the template: the disc in slot 1 (at the slot's size first: too large), the tiger in slot 2
  await row.getByRole("button", { name: /New print from/ }).click();
  const modal = page.locator(".ant-modal").filter({ hasText: "New print from" });
  await modal.getByTestId("template-slot-row").nth(1).waitFor();
  const pick = async (slot, name) => {
    const box = modal.getByRole("combobox", { name: `Image for slot ${slot}` });
    await box.click({ force: true });
    await box.fill(name);
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: new RegExp(`^${name}(\\.png)?$`) }).first().click();
    // the next pick must not find this list while it fades out (it lists the same images)
    await waitFor(async () => (await page.locator(".ant-select-dropdown:visible").count()) === 0, { what: `the image list of slot ${slot} closed` });
  };
  // the sizes start at the slot's printed width (Two inch)
  await waitFor(async () => (await modal.getByTestId("template-slot-row").nth(0).innerText()).includes("Two inch"), { what: "the default size" });
  await pick(1, "disc");
  await pick(2, "tiger");
  await modal.getByRole("button", { name: "Create print" }).click();
  const error = modal.getByTestId("template-print-error");
  await error.waitFor();
  if (!/"disc" is 2 × 2 in as placed, larger than slot 1 \("tiger"\)/.test(await error.innerText())) throw new Error(`error: ${await error.innerText()}`);
  await settle(page);
  await shot("new-print-slot-too-small");
  if ((await serious(page)).length) throw new Error(`axe (new print): ${JSON.stringify(await serious(page), null, 1)}`);
  const sizeBox = modal.getByRole("combobox", { name: "Size for slot 1" });
  await sizeBox.click({ force: true });
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: /^One inch/ }).first().click();
  await modal.getByRole("button", { name: "Create print" }).click();

  // 5. the draft: its saved layout has each copy in its slot
  await page.waitForURL((url) => /\/prints\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(source._id));
  const printId = new URL(page.url()).pathname.split("/").pop();
  await page.getByTestId("layout-edited").waitFor({ timeout: 120_000 });
  await waitFor(async () => (await page.getByTestId("layout-preview").getByTestId("layout-design").count()) === 2, { what: "2 designs in the preview", timeout: 60_000 });
  await settle(page);
  await shot("draft-from-template", { fullPage: true });
  const layout = (await api("GET", `/print/${printId}/layout`)).body.data;
  const print = (await api("GET", `/print/${printId}`)).body.data;
  const copyOf = (imageId) => layout.copies.find((c) => c.imageId === imageId);
  const [s1, s2] = template.slots;
  const d = copyOf(disc._id);
  const t = copyOf(tiger._id);
  const near = (a, b) => Math.abs(a - b) <= 0.011;
  // each copy centred in its slot's box, turned as the slot
  if (!near(d.x + d.width / 2, s1.x + s1.width / 2) || !near(d.y + d.height / 2, s1.y + s1.height / 2) || d.rotation !== 0 || !near(d.width, 1))
    throw new Error(`disc ${JSON.stringify(d)} not in slot 1 ${JSON.stringify(s1)}`);
  if (!near(t.x + t.width / 2, s2.x + s2.width / 2) || !near(t.y + t.height / 2, s2.y + s2.height / 2) || t.rotation !== 90)
    throw new Error(`tiger ${JSON.stringify(t)} not in slot 2 ${JSON.stringify(s2)}`);
  if (print.status !== "In Draft" || print.printItems.find((i) => i.imageId === disc._id).sizeId !== one._id) throw new Error(`print ${JSON.stringify(print)}`);
  // still editable before processing
  if (await page.getByRole("button", { name: "Edit layout" }).isDisabled()) throw new Error("Edit layout must stay available on the draft");

  // the print detail saves its layout as a template too
  await page.getByRole("button", { name: "Save as template" }).click();
  const fromDetail = page.locator(".ant-modal").filter({ hasText: "Template name" });
  await fromDetail.getByLabel("Template name").fill("From the draft");
  await fromDetail.getByRole("button", { name: "Save template" }).click();
  await page.locator(".ant-modal").filter({ hasText: "is saved." }).getByRole("button", { name: "Done" }).click();
  const again = (await api("GET", "/templates?sortBy=name&sort=asc")).body.data;
  if (again.length !== 2 || again[0].name !== "From the draft" || again[0].slots.length !== 2) throw new Error(`templates: ${JSON.stringify(again)}`);

  // 6. the Templates page at 375 px
  await page.goto("/templates");
  await page.setViewportSize({ width: 375, height: 760 });
  await page.locator(".ant-table-row, .ant-list-item, [data-testid='template-drawing']").first().waitFor();
  await settle(page);
  await shot("templates-375");
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > 376) throw new Error(`the Templates page is ${wide} px wide at 375 px`);
  await page.getByRole("button", { name: /New print from/ }).first().click();
  await settle(page);
  await shot("new-print-375");
  const right = await page.evaluate(() => document.querySelector(".ant-modal")?.getBoundingClientRect().right ?? 0);
  if (right > 376) throw new Error(`the new-print modal is ${right} px wide at 375 px`);
});
