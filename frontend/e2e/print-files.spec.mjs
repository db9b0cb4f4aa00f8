// Print files: the seller ticks PDF beside PNG in the print's sheet settings, processes the
// print, and downloads both files from the success modal, which lists them by format; the
// print detail keeps the same list in its Files card.
import { grantCredits, settle, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

/** The page fetches a file link with its own cookies; returns status, type and the first bytes. */
const fetchInPage = (page, url) =>
  page.evaluate(async (u) => {
    const res = await fetch(u, { credentials: "include" });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), head: Array.from(bytes.slice(0, 8)), length: bytes.length };
  }, url);

const PNG_SIGNATURE = "137,80,78,71,13,10,26,10";
const PDF_SIGNATURE = [..."%PDF-"].map((c) => c.charCodeAt(0)).join(",");

test("print files: pick PDF and PNG, process, download both from the success modal", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  const user = await createUser();
  await grantCredits({ api, admin }, user, 10);
  await login(user.email, user.password);
  const [image] = await uploadViaApi(context, baseUrl, [files.tiger()], { score: "4" });
  const size = await api("POST", "/sizes", { name: unique("Pocket"), value: 3 });
  if (size.status !== 201) throw new Error(`size ${size.status} ${JSON.stringify(size.body)}`);
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size.body.data._id, quantity: 3 }] });
  if (created.status !== 201) throw new Error(`print ${created.status} ${JSON.stringify(created.body)}`);
  const printId = created.body.data._id;

  await page.goto(`/prints/${printId}`);
  const settingsCard = page.getByTestId("sheet-settings");
  const formats = settingsCard.getByTestId("formats");
  await formats.waitFor();
  // PNG is the default; the only ticked format cannot be unticked.
  if (!(await formats.getByLabel("PNG").isChecked())) throw new Error("PNG should be ticked by default");
  if (await formats.getByLabel("PDF").isChecked()) throw new Error("PDF should not be ticked by default");
  if (!(await formats.getByLabel("PNG").isDisabled())) throw new Error("the only format must not be unticked");
  // A small sheet keeps the render quick.
  await settingsCard.getByLabel("Sheet width").fill("10");
  await formats.getByText("PDF").click();
  await waitFor(async () => (await formats.getByLabel("PDF").isChecked()) && !(await formats.getByLabel("PNG").isDisabled()), { what: "PDF ticked beside PNG" });
  await page.getByTestId("layout-preview").getByTestId("layout-sheet").first().waitFor();
  await settle(page);
  await shot("settings-pdf-png");

  await page.getByRole("button", { name: "Process Print" }).click();
  await page.waitForURL(/printWarningModal=3/);
  await page.locator(".ant-modal").filter({ hasText: "Process print" }).getByRole("button", { name: "Proceed" }).click();
  await page.waitForURL(/printSuccessModal=true/, { timeout: 90_000 });

  const success = page.locator(".ant-modal").filter({ hasText: "Print processed" });
  await success.getByTestId("files-pdf").waitFor();
  await settle(page);
  await shot("success-by-format");
  const url = new URL(page.url());
  const paths = url.searchParams.getAll("filePath");
  if (paths.length !== 2) throw new Error(`two filePath parameters expected (PNG, PDF), got ${JSON.stringify(paths)}`);
  const pngRow = success.getByTestId("files-png").getByTestId("success-file");
  const pdfRow = success.getByTestId("files-pdf").getByTestId("success-file");
  if ((await pngRow.count()) !== 1 || (await pdfRow.count()) !== 1) throw new Error("one PNG and one PDF row expected");
  await pngRow.getByText("Gang sheet (PNG)").waitFor();
  await pdfRow.getByText("Gang sheet (PDF)").waitFor();

  // Both Download buttons fetch their file.
  const pngHref = await pngRow.getByRole("link", { name: /^Download/ }).getAttribute("href");
  const pdfHref = await pdfRow.getByRole("link", { name: /^Download/ }).getAttribute("href");
  if (pngHref !== `/api/print/${printId}/files/1` || pdfHref !== `/api/print/${printId}/files/1/pdf`) throw new Error(`links: ${pngHref} ${pdfHref}`);
  const png = await fetchInPage(page, pngHref);
  if (png.status !== 200 || png.head.join(",") !== PNG_SIGNATURE || png.type !== "image/png") throw new Error(`not a PNG: ${JSON.stringify(png)}`);
  const pdf = await fetchInPage(page, pdfHref);
  if (pdf.status !== 200 || pdf.head.slice(0, 5).join(",") !== PDF_SIGNATURE || pdf.type !== "application/pdf") throw new Error(`not a PDF: ${JSON.stringify(pdf)}`);
  if (!/sheet-1\.pdf"$/.test(pdf.disposition ?? "")) throw new Error(`PDF should download as sheet-1.pdf: ${pdf.disposition}`);
  // The browser's own download of the PDF link.
  const [download] = await Promise.all([page.waitForEvent("download"), pdfRow.getByRole("link", { name: /^Download/ }).click()]);
  if (!download.suggestedFilename().endsWith("sheet-1.pdf")) throw new Error(`downloaded ${download.suggestedFilename()}`);

  await success.getByRole("button", { name: "Close" }).last().click();
  await page.waitForURL((u) => !u.searchParams.has("printSuccessModal"));
  // The print detail lists the same files by format.
  const card = page.getByTestId("print-detail-files");
  await card.getByTestId("files-png").getByText("Gang sheet (PNG)").waitFor();
  await card.getByTestId("files-pdf").getByText("Gang sheet (PDF)").waitFor();
  await settle(page);
  await shot("detail-files");
});
