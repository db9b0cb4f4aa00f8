import { describe, expect, it } from "vitest";
import { DATA_RESOURCES, ROUTES, menuEntries, refineResources, resourceApis, type AppRoute } from "./routes";

// Every source file but the table itself and the tests, to check the table against its use.
const sources = Object.entries(import.meta.glob<string>(["./**/*.{ts,tsx}", "!./**/*.test.{ts,tsx}", "!./routes.tsx", "!./api/schema.d.ts"], { query: "?raw", import: "default", eager: true }));

/** Parameters a list or a modal already gives a meaning (lib/urlList.ts, lib/queryModal.ts). */
const RESERVED_PARAMS = ["page", "limit", "sortBy", "sort", "search", "callback", "filePath"];

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
  it("makes a new screen one entry: its route, resource, API paths and menu item follow", () => {
    const extra: AppRoute = {
      path: "/colors", element: null, access: "user",
      resource: { name: "colors", action: "list", api: { list: "/api/sizes", one: "/api/sizes/{id}" } },
      modals: ["addColor"], menu: { label: "Colors", icon: null },
    };
    const routes = [...ROUTES, extra];
    expect(refineResources(routes).find((r) => r.name === "colors")).toEqual({ name: "colors", list: "/colors", meta: { label: "Colors" } });
    expect(resourceApis(routes).colors).toEqual({ list: "/api/sizes", one: "/api/sizes/{id}" });
    expect(menuEntries(routes).at(-1)).toMatchObject({ path: "/colors", label: "Colors", adminOnly: false });
  });
  it("gives the sidebar the spec's entries in the spec's order (Production and Templates added beside Prints), Users and Completed Payments for admins only", () => {
    const entries = menuEntries();
    expect(entries.filter((m) => !m.adminOnly).map((m) => m.label)).toEqual(["Dashboard", "Integration Orders", "Production", "Prints", "Templates", "Sizes", "Images", "Integrations"]);
    expect(entries.filter((m) => m.adminOnly).map((m) => m.label)).toEqual(["Users", "Completed Payments"]);
  });
  it("sends signed-in users away from guest pages only", () => {
    for (const r of ROUTES) expect(Boolean(r.redirectTo)).toBe(r.access === "guest");
  });
});

describe("resources in the route table", () => {
  const declarations = [...ROUTES.flatMap((r) => (r.resource?.api ? [r.resource.name] : [])), ...DATA_RESOURCES.map((r) => r.name)];

  it("declare each resource's API paths exactly once", () => {
    expect(declarations.filter((name, i) => declarations.indexOf(name) !== i)).toEqual([]);
    const named = ROUTES.flatMap((r) => (r.resource ? [r.resource.name] : []));
    expect(named.filter((name) => !declarations.includes(name))).toEqual([]);
  });
  it("give a show screen a record path and an :id in its URL", () => {
    const apis = resourceApis();
    for (const r of ROUTES.filter((route) => route.resource?.action === "show")) {
      expect(r.path, r.path).toMatch(/\/:id$/);
      expect(apis[r.resource!.name].one, r.resource!.name).toBeDefined();
    }
    for (const r of ROUTES.filter((route) => route.resource?.action === "list")) expect(r.path, r.path).not.toContain(":");
  });
  it("are each read or written somewhere", () => {
    for (const name of declarations) {
      const use = new RegExp(`(useResource(List|One)\\(|resource: |resource=)"${name}"`);
      expect(sources.some(([, text]) => use.test(text)), `resource "${name}" is declared but no screen uses it`).toBe(true);
    }
  });
});

describe("modal parameters in the route table", () => {
  const modals = [...new Set(ROUTES.flatMap((r) => r.modals ?? []))];

  it("never take a name a list or another modal parameter already means", () => {
    expect(modals.filter((m) => RESERVED_PARAMS.includes(m))).toEqual([]);
  });
  it("are each opened or read somewhere", () => {
    for (const name of modals) {
      const used = sources.some(([, text]) => text.includes(`"${name}"`));
      expect(used, `modal "${name}" is declared but nothing opens it`).toBe(true);
    }
  });
  it("belong to signed-in screens only", () => {
    for (const r of ROUTES.filter((route) => route.modals?.length)) expect(["user", "admin"], r.path).toContain(r.access);
  });
});
