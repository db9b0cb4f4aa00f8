// Share links: on a completed print the seller's Copy link copies a signed link that a
// stranger without an account can download; the page says until when it works, and
// "Revoke links" ends every link sent so far.
import { expectToast, grantCredits, settle, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

/** A request with no cookie at all, as the person the link was sent to. */
const asStranger = async (url) => {
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), body };
};

test("print share: Copy link gives a link a stranger can download until the files expire; Revoke links ends it", async ({ page, context, baseUrl, admin, api, createUser, login, shot }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
  const user = await createUser();
  await grantCredits({ api, admin }, user, 10);
  await login(user.email, user.password);
  const [image] = await uploadViaApi(context, baseUrl, [files.tiger()], { score: "4" });
  const size = await api("POST", "/sizes", { name: unique("Pocket"), value: 3 });
  await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the image to be ready" });
  const created = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size.body.data._id, quantity: 2 }] });
  const printId = created.body.data._id;
  const started = await api("POST", `/print/${printId}/process`, { settings: { width: 10, maxLength: 20 } });
  if (started.status !== 201) throw new Error(`process ${started.status} ${JSON.stringify(started.body)}`);
  const done = await waitFor(async () => {
    const p = (await api("GET", `/print/${printId}`)).body.data;
    return p.status === "Completed" && p;
  }, { what: "the print to complete", timeout: 90_000 });

  await page.goto(`/prints/${printId}`);
  const card = page.getByTestId("print-detail-files");
  const note = card.getByTestId("share-note");
  await note.getByText("Copy link gives a link anyone can open without an account").waitFor();
  const until = await note.getByTestId("share-until").innerText();
  const expected = new Date(done.filesExpireAt);
  if (!until.includes(String(expected.getFullYear())) || !until.includes(expected.toLocaleString("en-US", { month: "short" })))
    throw new Error(`the note should say until ${done.filesExpireAt}, says "${until}"`);

  // The owner's own download URL is not what gets copied: it answers 401 to anyone else.
  const ownPath = done.fileId[0].path;
  if ((await asStranger(`${baseUrl}${ownPath}`)).status !== 401) throw new Error("the owner's URL should need a session");

  await card.getByRole("button", { name: "Copy link" }).first().click();
  await expectToast(page, "Link copied to clipboard");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  if (!new RegExp(`^${baseUrl}/api/shared/[A-Za-z0-9_-]+/files/1$`).test(link)) throw new Error(`a share link was expected, got ${link}`);
  const got = await asStranger(link);
  if (got.status !== 200 || got.type !== "image/png" || got.body.subarray(0, 4).toString("hex") !== "89504e47") throw new Error(`the stranger should get the PNG: ${got.status} ${got.type}`);
  if (!/^attachment; filename="print-[0-9a-f]{8}-sheet-1\.png"$/.test(got.disposition ?? "")) throw new Error(`download name: ${got.disposition}`);
  await settle(page);
  await shot("files-card-share");

  // "Share File" opens the files with the same note and Copy link.
  await page.getByRole("button", { name: "Share File" }).click();
  const modal = page.locator(".ant-modal").filter({ hasText: "Print processed" });
  await modal.getByTestId("share-note").getByText("Revoke links").waitFor();
  await settle(page);
  await shot("share-file-modal");
  await modal.getByRole("button", { name: "Close" }).last().click();
  await modal.waitFor({ state: "hidden" });

  await note.getByRole("button", { name: "Revoke links" }).click();
  await page.locator(".ant-popconfirm").getByRole("button", { name: "Revoke links" }).click();
  await expectToast(page, "Share links revoked. Links you already sent no longer work.");
  const revoked = await asStranger(link);
  if (revoked.status !== 410 || !revoked.body.toString().includes("revoked")) throw new Error(`a revoked link should answer 410: ${revoked.status} ${revoked.body}`);

  // Copy link again makes a new link that works.
  await card.getByRole("button", { name: "Copy link" }).first().click();
  await expectToast(page, "Link copied to clipboard");
  const fresh = await page.evaluate(() => navigator.clipboard.readText());
  if (fresh === link) throw new Error("a new link was expected after revoking");
  if ((await asStranger(fresh)).status !== 200) throw new Error("the new link should work");
});
