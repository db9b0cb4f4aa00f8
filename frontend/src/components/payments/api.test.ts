import { describe, expect, it } from "vitest";
import { statusColor } from "./api";

describe("payment status colours", () => {
  it("Completed green, Cancelled or Refunded red, others warning", () => {
    expect(statusColor("Completed")).toBe("success");
    expect(statusColor("Cancelled")).toBe("error");
    expect(statusColor("Refunded")).toBe("error");
    expect(statusColor("Pending")).toBe("warning");
    expect(statusColor("Anything")).toBe("warning");
  });
});
