// Accessibility: axe-core on every page of the route table (frontend/src/routes.tsx), with
// real data and real ids, and on the modals that are pages (opened by a query parameter).
// Any serious or critical violation fails, and so does a page without exactly one h1.
// Each group's results are written to e2e/artifacts/axe-<group>.json.
import { axeAudit } from "./axe.mjs";
import { grantCredits, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";
import { startFakeWoo, syncedShop } from "./fake-woo.mjs";

/** Opens `path`, waits for `ready` (a selector) and audits the page under `label` (default: the path). */
const visitor = (page, audit) => async (path, ready, label = path) => {
  await page.goto(path);
  await page.locator(ready).first().waitFor();
  await audit.check(label);
};
const MODAL = ".ant-modal-content";
const HEAD = ".gs-page__head";

test("a11y: public pages", async ({ page }) => {
  const audit = axeAudit(page, "public");
  const visit = visitor(page, audit);
  await visit("/", "text=Sign up");
  await visit("/auth/signin", "button:has-text('Login')");
  await visit("/auth/signup", "button:has-text('Register')");
  await visit("/auth/forgot-password", "form");
  await visit("/verify?token=not-a-token", ".ant-result-error", "/verify (bad link)");
  await audit.assertClean();
});

test("a11y: seller pages", async ({ page, context, baseUrl, admin, api, createUser, login }) => {
  const woo = await startFakeWoo();
  try {
    const user = await createUser();
    await grantCredits({ api, admin }, user, 200);
    await login(user.email, user.password);
    const images = await uploadViaApi(context, baseUrl, [files.tiger(), files.lotus()], { score: "4" });
    const size = (await api("POST", "/sizes", { name: unique("Chest"), value: 3 })).body.data;
    for (const image of images) await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the images to be ready" });
    const draft = (await api("POST", "/print", { printItems: images.map((i) => ({ imageId: i._id, sizeId: size._id, quantity: 2 })) })).body.data;
    const done = (await api("POST", "/print", { printItems: [{ imageId: images[0]._id, sizeId: size._id, quantity: 1 }] })).body.data;
    const processed = await api("POST", `/print/${done._id}/process`, { settings: { width: 10 } });
    if (processed.status >= 300) throw new Error(`process ${processed.status} ${JSON.stringify(processed.body)}`);
    const shopId = await syncedShop(api, woo);
    const orders = (await api("GET", `/orders?integrationId=${shopId}`)).body.data;
    const orderItems = orders.flatMap((o) => o.orderItems.map((i) => i._id));
    const orderPrint = await api("POST", "/orders/print", { orderItems: orderItems.slice(0, 1) });
    if (orderPrint.status !== 201) throw new Error(`order print ${orderPrint.status} ${JSON.stringify(orderPrint.body)}`);
    const payment = (await api("POST", "/buyCredits", { sku: "credits500" })).body.data;
    await waitFor(async () => (await api("GET", `/print/${done._id}`)).body.data.status === "Completed", { what: "the print to complete", timeout: 90_000 });

    const audit = axeAudit(page, "seller");
    const visit = visitor(page, audit);
    await visit("/dashboard", "[data-testid=package-credits500]");
    await visit(`/orders?integrationId=${shopId}`, ".ant-table-row", "/orders");
    await page.locator(".ant-table-row").first().getByRole("button", { name: "Show Items" }).click();
    await page.locator(".ant-table-expanded-row .ant-table-row").first().waitFor();
    await audit.check("/orders (items shown)");
    await visit("/prints", ".ant-table-row");
    await visit("/prints/manual-create", HEAD);
    await visit("/prints/manual-create?addPrint=true", "[data-testid=image-tile]", "/prints/manual-create?addPrint (Add Item)");
    await page.getByTestId("image-tile").first().click();
    await page.getByTestId("image-panel").waitFor();
    await audit.check("/prints/manual-create?addPrint (image chosen)");
    await visit(`/prints/review-print?orderItems=${orderItems.slice(1).join(",")}`, ".ant-table-row", "/prints/review-print");
    await visit(`/prints/${draft._id}`, "[data-testid=layout-sheet]", "/prints/:id (draft)");
    await visit(`/prints/${draft._id}?printWarningModal=2`, MODAL, "/prints/:id?printWarningModal");
    await visit(`/prints/${done._id}`, HEAD, "/prints/:id (completed)");
    await visit(`/prints/${done._id}?deletePrint=${done._id}`, MODAL, "/prints/:id?deletePrint");
    await visit(`/prints/${orderPrint.body._id}`, ".ant-table-row", "/prints/:id (shop order)");
    await visit("/sizes", ".ant-table-row");
    await visit("/sizes?addSize=true", MODAL, "/sizes?addSize");
    await visit(`/sizes?editSize=${size._id}`, `${MODAL} input`, "/sizes?editSize");
    await visit("/images", "[data-testid=image-tile]");
    await visit("/images?addImage=true", MODAL, "/images?addImage");
    await visit(`/images?editImage=${images[0]._id}`, `${MODAL} img`, "/images?editImage");
    await visit("/integrations", ".ant-table-row");
    await visit("/integrations?addIntegration=true", MODAL, "/integrations?addIntegration");
    await visit(`/integrations?editIntegration=${shopId}`, `${MODAL} input`, "/integrations?editIntegration");
    await visit(`/integrations/${shopId}`, ".ant-statistic", "/integrations/:id");
    await visit("/profile", "text=Update Profile Information");
    await visit("/profile?buyCredit=100", `${MODAL} [data-testid=package-credits500]`, "/profile?buyCredit");
    await visit(`/profile?bankTransfer=${payment.paymentId}`, MODAL, "/profile?bankTransfer");
    await visit("/payment", "[data-testid=package-credits500]");
    await visit(`/payment/${payment.paymentId}`, ".ant-descriptions", "/payment/:id");
    await audit.assertClean();
  } finally {
    woo.stop();
  }
});

test("a11y: admin pages", async ({ page, admin, api, adminLogin, createUser }) => {
  const user = await createUser();
  const userId = await grantCredits({ api, admin }, user, 20);
  await adminLogin();
  const audit = axeAudit(page, "admin");
  const visit = visitor(page, audit);
  await visit("/dashboard", HEAD, "/dashboard (admin)");
  await visit(`/users?search=${user.username}`, ".ant-table-row", "/users");
  await visit("/users?addUser=true", `${MODAL} input`, "/users?addUser");
  await visit(`/users?editUser=${userId}`, `${MODAL} input`, "/users?editUser");
  await visit(`/users?editCredit=${userId}`, `${MODAL} input`, "/users?editCredit");
  await visit(`/users?deleteUser=${userId}`, MODAL, "/users?deleteUser");
  await visit(`/users/${userId}`, HEAD, "/users/:id");
  await visit("/completed-payments", HEAD);
  await audit.assertClean();
});
