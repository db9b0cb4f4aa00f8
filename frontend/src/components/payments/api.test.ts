import { describe, expect, it } from "vitest";
import { money, statusColor } from "./api";

describe("payment status colours", () => {
  it("Completed green, Cancelled or Refunded red, others warning", () => {
    expect(statusColor("Completed")).toBe("success");
    expect(statusColor("Cancelled")).toBe("error");
    expect(statusColor("Refunded")).toBe("error");
    expect(statusColor("Pending")).toBe("warning");
    expect(statusColor("Anything")).toBe("warning");
  });

  it("formats whole dollars without cents and keeps cents when there are some", () => {
    expect(money(50)).toBe("$50");
    expect(money(1234.5)).toBe("$1,234.50");
  });
});
