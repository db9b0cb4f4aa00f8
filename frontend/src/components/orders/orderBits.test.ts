import { describe, expect, it } from "vitest";
import { activeIntegrationId, orderUrl, reviewUrl, shopStatusColor, statusColor, truncate } from "./orderBits";

describe("order bits", () => {
  it("truncates titles and addresses at the spec's length", () => {
    expect(truncate("x".repeat(50), 50)).toBe("x".repeat(50));
    expect(truncate("x".repeat(51), 50)).toBe(`${"x".repeat(50)}…`);
    expect(truncate(null, 50)).toBe("");
  });
  it("badge colours: Completed green, In Draft primary, others warning", () => {
    expect(statusColor("Completed")).toBe("success");
    expect(statusColor("In Draft")).toBe("processing");
    expect(statusColor("Pending")).toBe("warning");
    expect(statusColor("Partially Completed")).toBe("warning");
  });
  it("review url carries the selected item ids", () => {
    expect(reviewUrl(["a", "b"])).toBe("/prints/review-print?orderItems=a,b");
  });
  it("a seller with one shop works on it without choosing; with several, only on the chosen one", () => {
    expect(activeIntegrationId(undefined, [{ _id: "only" }])).toBe("only");
    expect(activeIntegrationId("b", [{ _id: "a" }, { _id: "b" }])).toBe("b");
    expect(activeIntegrationId(undefined, [{ _id: "a" }, { _id: "b" }])).toBeUndefined();
    expect(activeIntegrationId(undefined, [])).toBeUndefined();
    expect(activeIntegrationId(undefined, undefined)).toBeUndefined();
  });
  it("shop status colours: done green, ended red, waiting orange, open grey (WooCommerce and Etsy words)", () => {
    expect(shopStatusColor("completed")).toBe("success");
    expect(shopStatusColor("Completed")).toBe("success");
    expect(shopStatusColor("cancelled")).toBe("error");
    expect(shopStatusColor("canceled")).toBe("error");
    expect(shopStatusColor("fully refunded")).toBe("error");
    expect(shopStatusColor("on-hold")).toBe("warning");
    expect(shopStatusColor("payment processing")).toBe("warning");
    expect(shopStatusColor("processing")).toBe("default");
    expect(shopStatusColor("paid")).toBe("default");
  });
  it("a print item links to its order on the Orders page", () => {
    expect(orderUrl("o-1")).toBe("/orders?id=o-1");
  });
});
