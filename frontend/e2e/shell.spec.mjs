import assert from "node:assert/strict";
import { expectTitle, test } from "./fixtures.mjs";

test("shell: sidebar collapse is remembered, breadcrumb from Home, logo goes to the dashboard", async ({ page, adminLogin, shot }) => {
  await adminLogin();
  const sider = page.locator(".gs-sider");
  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await page.waitForFunction(() => document.querySelector(".gs-sider").classList.contains("ant-layout-sider-collapsed"));
  await page.reload();
  await page.getByRole("button", { name: "Expand sidebar" }).waitFor();
  assert.match((await sider.getAttribute("class")) ?? "", /ant-layout-sider-collapsed/);
  await shot("collapsed");
  await page.getByRole("button", { name: "Expand sidebar" }).click();
  await page.getByRole("button", { name: "Collapse sidebar" }).waitFor();

  await page.goto("/profile");
  await expectTitle(page, "GangSheet Studio | Profile");
  await page.locator(".gs-breadcrumb").getByRole("link", { name: "Home" }).waitFor();
  assert.equal(await sider.locator(".ant-menu-item-selected").count(), 0);
  await shot("profile");

  await sider.getByRole("link", { name: "GangSheet Studio" }).click();
  await page.waitForURL("**/dashboard");
  assert.equal(await sider.locator(".ant-menu-item-selected").innerText(), "Dashboard");
});

test.describe(() => {
  test.use({ viewport: { width: 390, height: 844 } });
  test(
    "shell: phone-sized screens",
    async ({ page, adminLogin, shot }) => {
      await adminLogin();
      await shot("dashboard");
      // The sidebar is a closed overlay on phones; it opens from the header and closes on navigation.
      await page.getByRole("button", { name: "Expand sidebar" }).click();
      await page.locator(".gs-sider-backdrop").waitFor();
      await page.waitForTimeout(300); // let the slide-in finish before the screenshot
      await shot("menu");
      await page.locator(".gs-sider").getByRole("link", { name: "Users" }).click();
      await page.waitForURL("**/users");
      await page.getByRole("button", { name: "Expand sidebar" }).waitFor();
      await page.goto("/users");
      await page.getByTestId("card-row").first().getByText("Email").waitFor();
      await shot("users");
      await page.goto("/profile");
      await page.getByText("Update Profile Information").waitFor();
      await shot("profile", { fullPage: true });
    },
  );
});
