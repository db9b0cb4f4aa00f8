// Phone width (375 px): print detail, prints and orders keep every control on screen (lists
// are cards, nothing scrolls sideways) and the print detail's heading never breaks a word.
import { grantCredits, test, unique, waitFor } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";
import { startFakeWoo, syncedShop } from "./fake-woo.mjs";

const WIDTH = 375;
test.use({ viewport: { width: WIDTH, height: 812 } });

/** Every visible control whose box leaves the screen sideways, and the page's scroll width. */
async function offScreen(page) {
  return page.evaluate((width) => {
    const controls = [...document.querySelectorAll("button, a[href], input, select, textarea, [role=button], [role=checkbox], [role=combobox], [role=link]")];
    const out = controls
      .filter((el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0 && (r.right > width + 0.5 || r.left < -0.5))
      .map(({ el, r }) => `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") || el.textContent || el.getAttribute("name") || "").trim().slice(0, 40)}" at ${Math.round(r.left)}–${Math.round(r.right)}`);
    return { controls: out, scrollWidth: document.documentElement.scrollWidth };
  }, WIDTH);
}

/** Adds to `faults` what lies off-screen on the page now open. */
async function checkOnScreen(page, label, faults) {
  const { controls, scrollWidth } = await offScreen(page);
  if (scrollWidth > WIDTH) faults.push(`${label}: the page is ${scrollWidth} px wide`);
  for (const c of controls) faults.push(`${label}: ${c}`);
}

/** Text nodes of the page heading that wrap onto more than one line ("Prin / t"). */
const brokenHeadingWords = (page) =>
  page.evaluate(() => {
    const walker = document.createTreeWalker(document.querySelector(".gs-page__head .ant-typography"), NodeFilter.SHOW_TEXT);
    const broken = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(n.textContent.trim());
    }
    return broken;
  });

test(
  "phone: print detail, prints and orders keep every control on screen",
  async ({ page, context, baseUrl, api, createUser, login, shot }) => {
    const woo = await startFakeWoo();
    try {
      const user = await createUser();
      await login(user.email, user.password);
      const images = await uploadViaApi(context, baseUrl, [files.tiger(), files.lotus()], { score: "4" });
      const size = (await api("POST", "/sizes", { name: unique("Chest pocket "), value: 3 })).body.data;
      for (const image of images) await waitFor(async () => (await api("GET", `/images/${image._id}`)).body?.data?.status === "ready", { what: "the images to be ready" });
      const print = (await api("POST", "/print", { printItems: images.map((i) => ({ imageId: i._id, sizeId: size._id, quantity: 3 })) })).body.data;
      await api("POST", "/print", { printItems: [{ imageId: images[0]._id, sizeId: size._id, quantity: 1 }] });
      const shopId = await syncedShop(api, woo, "Phone shop");

      await page.goto(`/prints/${print._id}`);
      await page.getByLabel("Quantity").first().waitFor();
      await page.getByTestId("layout-preview").getByTestId("layout-sheet").first().waitFor();
      await page.waitForTimeout(500);
      await shot("print-detail", { fullPage: true });
      const faults = (await brokenHeadingWords(page)).map((t) => `print detail: the heading breaks inside "${t}"`);
      await checkOnScreen(page, "print detail", faults);

      await page.goto("/prints");
      await page.getByRole("button", { name: /Process/ }).first().waitFor();
      await page.waitForTimeout(300);
      await shot("prints", { fullPage: true });
      await checkOnScreen(page, "prints", faults);

      await page.goto(`/orders?integrationId=${shopId}`);
      const order = page.locator("[data-testid=card-row], .ant-table-row").filter({ hasText: "#1057" });
      await order.getByRole("button", { name: "Show Items" }).click();
      await page.getByText("Custom Tee Print - A3 (back)").waitFor();
      await page.waitForTimeout(300);
      await shot("orders", { fullPage: true });
      await checkOnScreen(page, "orders with items shown", faults);
      if (faults.length) throw new Error(`at ${WIDTH} px:\n  ${faults.join("\n  ")}`);

      await order.getByRole("checkbox", { name: "Select all" }).check();
      await page.getByTestId("order-selection-bar").getByText("2 order items selected").waitFor();
      await page.waitForTimeout(300);
      await shot("orders-selected", { fullPage: true });
      await checkOnScreen(page, "orders with items selected", faults);
      if (faults.length) throw new Error(`at ${WIDTH} px:\n  ${faults.join("\n  ")}`);
    } finally {
      woo.stop();
    }
  },
);

test(
  "phone: profile (API keys, payments), the admin's user detail (credit history) and completed payments keep every control on screen",
  async ({ page, api, admin, createUser, login, adminLogin, shot }) => {
    const user = await createUser();
    const userId = await grantCredits({ api, admin }, user, 40);
    await api("POST", "/login", { email: admin.email, password: admin.password });
    for (const credits of [25, 10]) {
      const granted = await api("POST", `/users/${userId}/credit/grant`, { credits, reason: "Reprint of a smudged order" });
      if (granted.status >= 300) throw new Error(`grant ${granted.status} ${JSON.stringify(granted.body)}`);
    }
    await api("POST", "/logout");
    await api("POST", "/login", { email: user.email, password: user.password });
    const key = await api("POST", "/api-keys", { name: "Shop backend", scope: "read" });
    if (key.status >= 300) throw new Error(`api key ${key.status} ${JSON.stringify(key.body)}`);
    await api("POST", "/logout");
    const faults = [];

    await login(user.email, user.password);
    await page.goto("/profile#api-keys");
    await page.locator("#api-keys").getByText("Shop backend").waitFor();
    await page.waitForTimeout(300);
    await shot("profile", { fullPage: true });
    await checkOnScreen(page, "profile", faults);

    // another account in the same browser: the session cookie and what the app remembers of it go
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await adminLogin();
    await page.goto(`/users/${userId}`);
    await page.getByText("Reprint of a smudged order").first().waitFor();
    await page.waitForTimeout(300);
    await shot("user-detail", { fullPage: true });
    await checkOnScreen(page, "user detail", faults);

    await page.goto("/completed-payments");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForTimeout(500);
    await shot("completed-payments", { fullPage: true });
    await checkOnScreen(page, "completed payments", faults);
    if (faults.length) throw new Error(`at ${WIDTH} px:\n  ${faults.join("\n  ")}`);
  },
);
