import assert from "node:assert/strict";
import { expectToast, test, unique } from "./fixtures.mjs";
import { files, uploadViaApi } from "./images-fixtures.mjs";

const dropdown = (page) => page.locator(".ant-select-dropdown:visible");
const pickOption = async (page, text) => dropdown(page).locator(".ant-select-item-option", { hasText: text }).first().click();
const tiles = (page) => page.getByTestId("image-tile");
const chip = (page, text) => page.getByRole("group", { name: "Categories" }).locator(".ant-tag", { hasText: text });

test("images: upload (one bad file), edit, bulk category, filter, search, delete", async ({ page, api, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.goto("/images");
  await page.getByText("No images found.").waitFor();
  assert.equal(await page.title(), "GangSheet Studio | Images");
  await chip(page, "All categories").getByText("(0)").waitFor();
  await shot("empty");

  // Upload three files, one of which only pretends to be a PNG.
  await page.getByRole("button", { name: "Upload Image" }).first().click();
  await page.waitForURL(/addImage=true/);
  const upload = page.locator(".ant-modal").filter({ hasText: "Click or drag images" });
  const uploadButton = upload.getByRole("button", { name: "Upload", exact: true });
  assert.equal(await uploadButton.isDisabled(), true, "disabled without files");
  await upload.locator('input[type="file"]').setInputFiles([files.tiger(), files.lotus(), files.fake()]);
  await upload.getByTestId("upload-entry").nth(2).waitFor();

  // New category typed in place: upload waits until it is created.
  await upload.locator(".ant-select").click();
  await pickOption(page, "Add New Category");
  const animals = unique("Animals");
  await upload.getByLabel("New category name").fill(animals);
  assert.equal(await uploadButton.isDisabled(), true, "disabled in custom-category mode");
  await upload.getByRole("button", { name: "Add", exact: true }).click();
  await upload.locator(".ant-select-selection-item", { hasText: animals }).waitFor();
  await upload.locator(".ant-rate-star").nth(2).locator(".ant-rate-star-second").click(); // 3 stars
  await shot("upload-ready");
  await uploadButton.click();

  // The bad file stays in the list with the server's reason; the good ones are stored.
  await upload.getByTestId("upload-entry").filter({ hasText: "broken.png" }).locator(".ant-typography-danger").waitFor();
  assert.equal(await upload.getByTestId("upload-entry").count(), 1);
  await shot("upload-error");
  await upload.getByRole("button", { name: "Cancel" }).click();
  await upload.waitFor({ state: "hidden" });
  assert.doesNotMatch(page.url(), /addImage/);

  await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-tile"]').length === 2);
  await chip(page, "All categories").getByText("(2)").waitFor();
  await chip(page, animals).getByText("(2)").waitFor();
  // Previews are made by a queue job; the grid polls until they exist.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="image-tile"] img')].every((img) => img.src.endsWith("/preview") && img.complete && img.naturalWidth > 0), null, { timeout: 30_000 });
  await shot("grid");

  // Edit: the name is shown without its extension and is required.
  await tiles(page).filter({ hasText: "tiger" }).click();
  await page.waitForURL(/editImage=/);
  const edit = page.locator(".ant-modal").filter({ hasText: "Edit Image" });
  assert.equal(await edit.getByLabel("Name").inputValue(), "tiger");
  await edit.getByLabel("Name").fill("");
  await edit.getByText("Name is required").waitFor();
  await edit.getByLabel("Name").fill("Tiger stripes");
  await edit.locator(".ant-rate-star").nth(3).locator(".ant-rate-star-first").click(); // 3.5 stars
  await shot("edit");
  await edit.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Image updated");
  await edit.waitFor({ state: "hidden" });
  await tiles(page).filter({ hasText: "Tiger stripes" }).waitFor();
  const listed = await api("GET", "/images?search=Tiger");
  assert.equal(listed.body.data[0].score, 3.5);

  // The side panel shows the last clicked image; outside print mode it offers selecting it.
  const panel = page.getByTestId("image-panel");
  await panel.getByText("Tiger stripes").waitFor();
  await panel.getByText(animals).waitFor();
  await panel.getByText("Uploaded").waitFor();
  await panel.getByText("Last updated").waitFor();
  await panel.getByRole("button", { name: "Select this image" }).waitFor();

  // Bulk category change.
  const logos = unique("Logos");
  const created = await api("POST", "/image-categories", { name: logos });
  assert.equal(created.status, 201);
  await page.reload();
  for (const name of ["Tiger stripes", "lotus"]) await page.getByRole("checkbox", { name: `Select ${name}` }).check();
  const bar = page.getByTestId("selection-bar");
  await bar.getByText("2 images selected").waitFor();
  await shot("selection");
  await bar.getByRole("button", { name: "Change Category" }).click();
  await page.waitForURL(/editCategory=true/);
  const change = page.locator(".ant-modal").filter({ hasText: "Change Category" });
  await change.locator(".ant-select").click();
  await pickOption(page, logos);
  await change.getByRole("button", { name: "Save" }).click();
  await change.waitFor({ state: "hidden" });
  await bar.waitFor({ state: "hidden" });
  await chip(page, logos).getByText("(2)").waitFor();
  await chip(page, animals).getByText("(0)").waitFor();

  // Filter by chip.
  await chip(page, animals).click();
  await page.waitForURL(/imageCategory=/);
  await page.getByText("No images found.").waitFor();
  await chip(page, logos).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-tile"]').length === 2);
  await shot("filtered");
  await chip(page, "All categories").click();
  await page.waitForURL((url) => !url.searchParams.has("imageCategory"));

  // Sort and search.
  await page.locator(".ant-select[aria-label=\"Sort by\"]").click();
  await pickOption(page, "Name");
  await page.waitForURL(/sortBy=name/);
  await page.getByRole("button", { name: "Sort descending" }).click();
  await page.waitForURL(/sort=asc/);
  await page.waitForFunction(() => [...document.querySelectorAll(".gs-tile__name")].map((n) => n.textContent).join("|") === "lotus|Tiger stripes");
  await page.getByPlaceholder("Search images").fill("stripes");
  await page.waitForURL(/search=stripes/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-tile"]').length === 1);
  await shot("search");

  // Delete the found image.
  await page.getByRole("checkbox", { name: "Select Tiger stripes" }).check();
  await bar.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL(/deleteImage=true/);
  const del = page.locator(".ant-modal").filter({ hasText: "Delete Image" });
  await del.getByRole("button", { name: "Delete" }).click();
  await del.waitFor({ state: "hidden" });
  await page.getByText("No images found.").waitFor();
  await page.getByPlaceholder("Search images").fill("");
  await page.waitForURL((url) => !url.searchParams.has("search"));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="image-tile"]').length === 1);
  await chip(page, "All categories").getByText("(1)").waitFor();
  await shot("after-delete");

  // Query parameters are not filters: a direct link to the edit modal opens it.
  const [left] = (await api("GET", "/images")).body.data;
  await page.goto(`/images?editImage=${left._id}`);
  await page.locator(".ant-modal").filter({ hasText: "Edit Image" }).getByLabel("Name").waitFor();
  await page.waitForFunction(() => document.querySelector(".ant-modal input#editImage_name")?.value === "lotus");
});

test("sizes: add, edit, delete, then Add Size from the print picker comes back via callback", async ({ page, context, baseUrl, api, createUser, login, shot }) => {
  const user = await createUser();
  await login(user.username, user.password);
  await page.goto("/sizes");
  await page.getByText("You have no sizes yet. Click the button below to add a new size.").waitFor();
  assert.equal(await page.title(), "GangSheet Studio | Sizes");
  await shot("empty");

  await page.getByRole("button", { name: "Add Size" }).click();
  await page.waitForURL(/addSize=true/);
  const add = page.locator(".ant-modal").filter({ hasText: "Add Size" });
  await add.getByRole("button", { name: "Create" }).click();
  await add.getByText("Name is a required field").waitFor();
  await add.getByText("Value is a required field").waitFor();
  await add.getByLabel("Name").fill("Adult front");
  await add.getByLabel("Value (inch)").fill("eleven");
  await add.getByText(/Value must be a positive number/).waitFor();
  await shot("add-invalid");
  await add.getByLabel("Value (inch)").fill("11");
  await add.getByRole("button", { name: "Create" }).click();
  await add.waitFor({ state: "hidden" });
  const row = page.locator("tr", { hasText: "Adult front" });
  await row.getByText("11", { exact: true }).waitFor();
  const sizes = await api("GET", "/sizes?limit=999");
  assert.equal(sizes.body.data[0].value, 11, "value sent as a number");
  await shot("list");

  await page.getByRole("button", { name: "Edit Adult front" }).click();
  await page.waitForURL(/editSize=/);
  const edit = page.locator(".ant-modal").filter({ hasText: "Edit Size" });
  // The form is filled once the size has loaded; typing before that would be overwritten.
  await page.waitForFunction(() => document.querySelector(".ant-modal input#editSize_value")?.value === "11");
  await edit.getByLabel("Value (inch)").fill("12.5");
  await edit.getByRole("button", { name: "Save" }).click();
  await edit.waitFor({ state: "hidden" });
  await row.getByText("12.5", { exact: true }).waitFor();

  await page.getByRole("button", { name: "Delete Adult front" }).click();
  await page.waitForURL(/deleteSize=/);
  const del = page.locator(".ant-modal").filter({ hasText: "Delete Size" });
  await del.getByText("Adult front (", { exact: false }).waitFor(); // the record, loaded for the question
  await page.waitForTimeout(400); // the modal animates in
  await shot("delete-size");
  await del.getByRole("button", { name: "Delete" }).click();
  await page.getByText("You have no sizes yet.").waitFor();

  // Print picker: no sizes yet → Add Size → /sizes?addSize&callback → back in the picker.
  const [image] = await uploadViaApi(context, baseUrl, [{ name: "tiger.png", mimeType: "image/png", buffer: (await import("./images-fixtures.mjs")).pngImage(1200, 900) }]);
  await page.goto("/images?addPrint=true");
  await page.getByTestId("image-tile").first().click();
  const panel = page.getByTestId("image-panel");
  await panel.getByText("Size: No size found.").waitFor();
  assert.equal(await panel.getByRole("button", { name: "Add to print" }).isDisabled(), true);
  await shot("picker-no-size");
  await panel.getByRole("button", { name: "Add Size" }).click();
  await page.waitForURL(/\/sizes\?addSize=true&callback=/);
  const again = page.locator(".ant-modal").filter({ hasText: "Add Size" });
  await again.getByLabel("Name").fill("Pocket");
  await again.getByLabel("Value (inch)").fill("10");
  await again.getByRole("button", { name: "Create" }).click();
  await page.waitForURL((url) => url.pathname === "/images" && url.searchParams.get("addPrint") === "true");

  // Back in the picker: the size dropdown offers it as 'name (value Inches)'; DPI is checked.
  const size = (await api("GET", "/sizes?limit=999")).body.data[0];
  const print = await api("POST", "/print", { printItems: [{ imageId: image._id, sizeId: size._id, quantity: 1 }] });
  assert.equal(print.status, 201, JSON.stringify(print.body));
  await page.goto(`/images?addPrint=${print.body.data._id}`);
  await page.getByTestId("image-tile").first().click();
  await panel.locator(".ant-select").click();
  await dropdown(page).getByText("Add New Size").waitFor();
  await pickOption(page, "Pocket (10 Inches)");
  await panel.getByText("Low resolution: 120 DPI at this size — may print blurry").waitFor();
  await panel.getByLabel("Quantity").fill("3");
  await shot("picker-add");
  await panel.getByRole("button", { name: "Add to print" }).click();
  await expectToast(page, "Image added to print");
});
