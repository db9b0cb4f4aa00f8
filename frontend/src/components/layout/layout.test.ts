import { describe, expect, it } from "vitest";
import { activeMenuPath, menuFor } from "./menu";
import { notificationTarget, truncate } from "./NotificationBell";
import { capitalizeFirst } from "../../lib/capitalize";

describe("sidebar menu", () => {
  it("shows Users and Completed Payments to admins only, in the spec's order", () => {
    expect(menuFor(false).map((m) => m.label)).toEqual(["Dashboard", "Integration Orders", "Prints", "Sizes", "Images", "Integrations"]);
    expect(menuFor(true).map((m) => m.label).slice(-2)).toEqual(["Users", "Completed Payments"]);
  });
  it("highlights the entry owning the current path, and none for pages outside the menu", () => {
    expect(activeMenuPath("/prints/abc")).toBe("/prints");
    expect(activeMenuPath("/users/42")).toBe("/users");
    expect(activeMenuPath("/printsx")).toBeUndefined();
    expect(activeMenuPath("/profile")).toBeUndefined();
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
