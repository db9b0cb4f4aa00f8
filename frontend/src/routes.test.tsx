import { describe, expect, it } from "vitest";
import { ROUTES, menuEntries, refineResources, type AppRoute } from "./routes";

describe("route table", () => {
  it("declares each path once", () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
  it("gives Refine each resource once, with its list and show screens and menu label", () => {
    const resources = refineResources();
    expect(resources.find((r) => r.name === "print")).toEqual({ name: "print", list: "/prints", show: "/prints/:id", meta: { label: "Prints" } });
    expect(resources.find((r) => r.name === "users")).toEqual({ name: "users", list: "/users", show: "/users/:id", meta: { label: "Users" } });
    expect(resources.find((r) => r.name === "image-categories")).toEqual({ name: "image-categories" });
    expect(new Set(resources.map((r) => r.name)).size).toBe(resources.length);
  });
  it("makes a new screen one entry: its route, resource and menu item follow", () => {
    const extra: AppRoute = { path: "/payments", element: null, access: "admin", resource: { name: "payments", action: "list" }, menu: { label: "Payments", icon: null } };
    const routes = [...ROUTES, extra];
    expect(refineResources(routes).find((r) => r.name === "payments")).toEqual({ name: "payments", list: "/payments", meta: { label: "Payments" } });
    expect(menuEntries(routes).at(-1)).toMatchObject({ path: "/payments", label: "Payments", adminOnly: true });
  });
  it("sends signed-in users away from guest pages only", () => {
    for (const r of ROUTES) expect(Boolean(r.redirectTo)).toBe(r.access === "guest");
  });
});
