import assert from "node:assert/strict";
import { expectTitle, expectToast, test, unique } from "./fixtures.mjs";

test("admin: creates, edits, changes credit, deactivates and deletes a user", async ({ page, adminLogin, api, shot }) => {
  await adminLogin();
  const sider = page.locator(".gs-sider");
  await sider.getByText("Completed Payments").waitFor();
  await sider.getByText("Users", { exact: true }).click();
  await page.waitForURL("**/users");
  await expectTitle(page, "GangSheet Studio | Users");
  await shot("list");

  await page.getByRole("button", { name: "Add User" }).click();
  await page.waitForURL(/addUser=true/);
  const modal = page.locator(".ant-modal").filter({ hasText: "Add User" });
  await modal.getByRole("button", { name: "Create" }).click();
  for (const msg of ["First Name is a required field", "Last Name is a required field", "Username is a required field", "Email is a required field", "Password is a required field", "Phone number is not valid"]) {
    await modal.getByText(msg).waitFor();
  }
  await modal.getByLabel("First Name").fill("Al");
  await modal.getByText("First Name must be at least 3 characters").waitFor();
  await modal.getByLabel("Password").fill("12345");
  await modal.getByText("Password must be at least 6 characters").waitFor();
  await shot("add-invalid");

  const username = unique("grace");
  const email = `${username}@e2e.test`;
  await modal.getByLabel("First Name").fill("Grace");
  await modal.getByLabel("Last Name").fill("Hopper");
  await modal.getByLabel("Username").fill(username);
  await modal.getByLabel("Company").fill("Navy");
  await modal.getByLabel("Email").fill(email);
  await modal.getByLabel("Password").fill("Cobol-1959");
  await modal.getByRole("textbox", { name: "Phone" }).pressSequentially("2133734253");
  await modal.getByRole("button", { name: "Create" }).click();
  await modal.waitFor({ state: "hidden" });
  assert.doesNotMatch(page.url(), /addUser/);

  await page.getByPlaceholder("Search users").fill(username);
  await page.waitForURL(new RegExp(`search=${username}`));
  const row = page.locator("tr", { hasText: email });
  await row.waitFor();
  assert.match(await row.innerText(), /Grace Hopper/);
  assert.match(await row.innerText(), /\buser\b/);

  // Edit: first/last name, e-mail and role.
  await page.getByRole("button", { name: `Edit ${username}` }).click();
  await page.waitForURL(/editUser=/);
  const edit = page.locator(".ant-modal").filter({ hasText: "Edit User" });
  // The form is filled once the user has loaded; typing before that would be mixed with it.
  await page.waitForFunction(() => document.querySelector(".ant-modal input#editUser_lastName")?.value === "Hopper");
  await edit.getByLabel("Last Name").fill("Murray Hopper");
  await shot("edit");
  await edit.getByRole("button", { name: "Save" }).click();
  await edit.waitFor({ state: "hidden" });
  await row.getByText("Grace Murray Hopper").waitFor();

  // Credit: set a new balance.
  await row.getByRole("button", { name: /^\d+$/ }).click();
  await page.waitForURL(/editCredit=/);
  const credit = page.locator(".ant-modal").filter({ hasText: "Edit credit" });
  await credit.getByLabel("Available credits").fill("250");
  await credit.getByLabel("Reason").fill("Opening balance agreed by phone");
  await credit.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Credit added successfully");
  await row.getByRole("button", { name: "250" }).waitFor();

  // Deactivate: the switch sends the new status at once, and login is refused.
  await page.getByRole("switch", { name: `Status of ${username}` }).click();
  await page.waitForFunction((name) => document.querySelector(`[aria-label="Status of ${name}"]`)?.getAttribute("aria-checked") === "false", username);
  const login = await api("POST", "/login", { email, password: "Cobol-1959" });
  assert.equal(login.status, 403, JSON.stringify(login.body));
  await shot("deactivated");

  // Detail page: breadcrumb Users / username, credits open the editor.
  await row.getByRole("link", { name: "Details" }).click();
  await page.waitForURL(/\/users\/[^/?]+$/);
  await page.locator(".gs-breadcrumb").getByText(username).waitFor();
  await page.locator(".gs-breadcrumb").getByRole("link", { name: "Users" }).waitFor();
  await page.getByTestId("available-credits").getByText("250").waitFor();
  // The balance edit is in the credit history with the admin's reason.
  await page.getByTestId("credit-history").getByText("“Opening balance agreed by phone”").waitFor();
  // The user's prints: the prints list's columns, the shared table's empty text.
  const prints = page.getByTestId("user-prints");
  for (const col of ["File", "Print ID", "Type", "Status", "Print date", "View"]) await prints.getByRole("columnheader", { name: col, exact: true }).waitFor();
  await prints.locator(".ant-table-placeholder").getByText("No data").waitFor();
  await prints.getByText("0 results").waitFor();
  await shot("detail");
  await page.getByTestId("available-credits").click();
  await page.waitForURL(/editCredit=/);
  await page.locator(".ant-modal").filter({ hasText: "Edit credit" }).getByRole("button", { name: "Cancel" }).click();
  await page.waitForURL((u) => !u.search.includes("editCredit"));

  // Delete.
  await page.goto(`/users?search=${username}`);
  await page.getByRole("button", { name: `Delete ${username}` }).click();
  const del = page.locator(".ant-modal").filter({ hasText: "Delete User" });
  await del.getByText(email).waitFor();
  await page.waitForTimeout(400); // the modal animates in
  await shot("delete");
  await del.getByRole("button", { name: "Delete" }).click();
  await del.waitFor({ state: "hidden" });
  await page.getByText("No data").waitFor();
  assert.equal((await api("GET", "/users?search=" + username)).body.pagination.totalDocuments, 0);
});

test("admin: table sort cycles asc → desc → none through the URL", async ({ page, adminLogin }) => {
  await adminLogin();
  await page.goto("/users");
  const header = page.getByRole("columnheader", { name: "Email" });
  // Each click acts on the header as rendered for the previous URL, so wait for the table
  // to show that state (aria-sort) before the next click.
  const sorted = (dir) => page.locator(`th[aria-sort="${dir}"]`).filter({ hasText: "Email" }).waitFor();
  await header.click();
  await page.waitForURL(/sortBy=email&sort=asc/);
  await sorted("ascending");
  await header.click();
  await page.waitForURL(/sortBy=email&sort=desc/);
  await sorted("descending");
  await header.click();
  await page.waitForURL((u) => !u.search.includes("sort"));
});
