import type { Rule, RuleObject } from "antd/es/form";
import { describe, expect, it } from "vitest";
import { sizeRules } from "../../components/sizes/sizeForm";
import { creditRules, editUserRules, newUserRules } from "./userRules";

/** Every message a rule list can show: the static ones and what its validators reject with. */
async function messages(rules: Rule[], bad: unknown[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of rules as RuleObject[]) {
    if (typeof r.message === "string") out.push(r.message);
    if (r.validator)
      for (const v of bad)
        await Promise.resolve(r.validator(r, v, () => undefined)).catch((e: Error) => out.push(e.message));
  }
  return out;
}

/** A field key such as firstName or availableCredits: lower-case start, or camelCase. */
const FIELD_KEY = /^(?:[a-z]+[A-Z]\w*|[a-z]+)\b/;

describe("form validation messages", () => {
  it("name every field by its label, never by its key", async () => {
    const all = [
      ...(await Promise.all(Object.values(newUserRules).map((r) => messages(r, ["x"])))).flat(),
      ...(await Promise.all(Object.values(editUserRules).map((r) => messages(r, ["x"])))).flat(),
      ...(await messages(creditRules, [-5, 2.5])),
      ...(await Promise.all(Object.values(sizeRules).map((r) => messages(r, ["abc"])))).flat(),
    ];
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((m) => FIELD_KEY.test(m))).toEqual([]);
    expect(all).toContain("First Name is a required field");
    expect(all).toContain("Available credits must be a positive integer");
  });
});
