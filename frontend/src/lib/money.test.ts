import { describe, expect, it } from "vitest";
import { money } from "./money";

describe("money", () => {
  it("formats whole amounts without cents and keeps cents when there are some", () => {
    expect(money(50, "USD", "en-US")).toBe("$50");
    expect(money(1234.5, "USD", "en-US")).toBe("$1,234.50");
  });

  it("follows the seller's locale", () => {
    expect(money(1234.5, "EUR", "de-DE")).toBe("1.234,50\u00a0€");
  });

  it("uses the browser's locale when none is given", () => {
    expect(money(7.25, "USD")).toBe(new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" }).format(7.25));
  });

  it("shows an unknown currency code after the amount instead of failing", () => {
    expect(money(12, "NOT-A-CURRENCY")).toBe("12.00 NOT-A-CURRENCY");
  });
});
