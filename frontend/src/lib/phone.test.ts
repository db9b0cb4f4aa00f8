import { describe, expect, it } from "vitest";
import { isValidPhone, normalisePhone, phoneRule } from "./phone";

describe("phone", () => {
  it("normalises pasted numbers to E.164", () => {
    expect(normalisePhone("+1 (213) 373-4253")).toBe("+12133734253");
    expect(normalisePhone("0044 7400 123456")).toBe("+447400123456");
    expect(normalisePhone("12133734253")).toBe("+12133734253");
  });
  it("returns null for what is not a phone number", () => {
    expect(normalisePhone("")).toBeNull();
    expect(normalisePhone(null)).toBeNull();
    expect(normalisePhone("+1 000")).toBeNull();
    expect(normalisePhone("hello")).toBeNull();
  });
  it("validates numbers of any country", () => {
    expect(isValidPhone("+12133734253")).toBe(true);
    expect(isValidPhone("+4915123456789")).toBe(true);
    expect(isValidPhone("+1213")).toBe(false);
    expect(isValidPhone(undefined)).toBe(false);
  });
  it("rule: required rejects empty, optional accepts it", async () => {
    await expect(phoneRule(true).validator(null, undefined)).rejects.toThrow("Phone number is not valid");
    await expect(phoneRule(false).validator(null, undefined)).resolves.toBeUndefined();
    await expect(phoneRule(false).validator(null, "+1213")).rejects.toThrow("Phone number is not valid");
  });
});
