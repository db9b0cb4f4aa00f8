import { describe, expect, it } from "vitest";
import { reviewUrl, statusColor, truncate } from "./orderBits";

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
});
