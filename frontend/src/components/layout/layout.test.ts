import { describe, expect, it } from "vitest";
import { activeMenuPath, menuFor } from "./menu";
import { notificationTarget, truncate } from "./NotificationBell";
import { capitalizeFirst } from "../../lib/capitalize";

describe("sidebar menu", () => {
  const entry = (path: string, adminOnly = false) => ({ path, label: path.slice(1), icon: null, adminOnly });
  const menu = [entry("/dashboard"), entry("/prints"), entry("/prints/manual-create"), entry("/users", true)];
  it("shows admin entries to admins only, in the given order", () => {
    expect(menuFor(menu, false).map((m) => m.path)).toEqual(["/dashboard", "/prints", "/prints/manual-create"]);
    expect(menuFor(menu, true).map((m) => m.path)).toEqual(["/dashboard", "/prints", "/prints/manual-create", "/users"]);
  });
  it("highlights the entry owning the current path (the longest), and none for pages outside the menu", () => {
    expect(activeMenuPath(menu, "/prints/abc")).toBe("/prints");
    expect(activeMenuPath(menu, "/prints/manual-create")).toBe("/prints/manual-create");
    expect(activeMenuPath(menu, "/users/42")).toBe("/users");
    expect(activeMenuPath(menu, "/printsx")).toBeUndefined();
    expect(activeMenuPath(menu, "/profile")).toBeUndefined();
  });
});

describe("notifications", () => {
  it("leads to the page of the notification's subject", () => {
    expect(notificationTarget({ type: "print", attachmentId: "p1" })).toBe("/prints/p1");
    expect(notificationTarget({ type: "image", attachmentId: "i1" })).toBe("/images?editImage=i1");
    expect(notificationTarget({ type: "payment" })).toBe("/profile/#payments");
    expect(notificationTarget({ type: "profile" })).toBe("/profile");
    expect(notificationTarget({ type: "size", attachmentId: "s1" })).toBe("/sizes?editSize=s1");
  });
  it("truncates titles to 50 characters", () => {
    expect(truncate("x".repeat(50))).toBe("x".repeat(50));
    expect(truncate("x".repeat(51))).toBe(`${"x".repeat(50)}…`);
  });
});

describe("capitalizeFirst", () => {
  it("uppercases only the first letter as the user types", () => {
    expect(capitalizeFirst("ada")).toBe("Ada");
    expect(capitalizeFirst("mcDonald")).toBe("McDonald");
    expect(capitalizeFirst("")).toBe("");
    expect(capitalizeFirst(undefined)).toBeUndefined();
  });
});
