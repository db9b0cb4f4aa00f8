// True-shape nesting on the process screen: a seller whose default is "Rectangles" picks
// "True shape" for a print of round transparent designs, sees the film it saves against
// rectangles in the live layout, processes, and gets the Completed print laid out that way.
import { grantCredits, settle, test, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

test("prints: pick True shape on the process screen, see the film saved, process to Completed", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const user = await createUser();
  await grantCredits({ api, admin }, user, 40);

  await login(user.email, user.password);
  // The seller's default is rectangles, so the choice on the process screen is what counts.
  const defaults = await api("PUT", "/sheet-settings", { nesting: "box" });
  if (defaults.status !== 200 || defaults.body.data.nesting !== "box") throw new Error(`settings ${defaults.status} ${JSON.stringify(defaults.body)}`);
  const [image] = await uploadViaApi(context, baseUrl, [files.disc()]);
  const size = await api("POST", "/sizes", { name: "Round badge", value: 3 });
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size.body.data._id, quantity: 30 }] });
  if (created.status !== 201) throw new Error(`print ${created.status} ${JSON.stringify(created.body)}`);
  const printId = created.body.data._id;

  await page.goto(`/prints/${printId}`);
  const preview = page.getByTestId("layout-preview");
  await waitFor(async () => (await preview.getByTestId("layout-design").count()) === 30, { what: "30 designs in the layout" });
  const nesting = page.getByTestId("sheet-settings").getByTestId("nesting");
  await nesting.getByText("Rectangles").waitFor();
  if (await preview.getByTestId("layout-saving").count()) throw new Error("rectangles show no saving");
  const boxLength = Number((await preview.getByTestId("layout-length").innerText()).replace(/[^\d.]/g, ""));
  await settle(page);
  await shot("rectangles");

  await nesting.getByText("True shape").click();
  const saving = preview.getByTestId("layout-saving");
  await saving.waitFor();
  const text = await saving.innerText();
  const m = /True shape saves (\d+) % film, ([\d.]+) in vs rectangles/.exec(text);
  if (!m || !(Number(m[1]) >= 5)) throw new Error(`expected a film saving of at least 5 %, got: ${text}`);
  const shapeLength = Number((await preview.getByTestId("layout-length").innerText()).replace(/[^\d.]/g, ""));
  if (!(shapeLength < boxLength)) throw new Error(`true shape should be shorter: ${shapeLength} vs ${boxLength} in`);
  await saving.evaluate((el) => { el.scrollIntoView({ block: "start" }); window.scrollBy(0, -140); });
  await settle(page);
  await shot("true-shape");

  await page.getByRole("button", { name: "Process Print" }).click();
  await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
  await page.waitForURL(/printSuccessModal=true/, { timeout: 90_000 });
  await page.locator(".ant-modal").filter({ hasText: "Print processed" }).getByRole("button", { name: "Close" }).last().click();
  await page.getByTestId("print-status").getByText("Completed").waitFor();
  const done = (await api("GET", `/print/${printId}`)).body.data;
  if (done.settings.nesting !== "shape") throw new Error(`processed with ${done.settings.nesting}`);
  // The Completed print shows the layout its sheet was rendered from, as long as the file.
  await preview.getByTestId("layout-rendered").waitFor();
  const rendered = Number((await preview.getByTestId("layout-length").innerText()).replace(/[^\d.]/g, ""));
  if (Math.abs(rendered - done.fileId[0].lengthIn) > 0.01) throw new Error(`stored layout ${rendered} in vs file ${done.fileId[0].lengthIn} in`);
  if (!(done.fileId[0].lengthIn < boxLength)) throw new Error(`delivered ${done.fileId[0].lengthIn} in, rectangles ${boxLength} in`);
  await settle(page);
  await shot("completed", { fullPage: true });
});
