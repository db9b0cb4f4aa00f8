import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js";

export const PHONE_INVALID = "Phone number is not valid";

/**
 * The API stores phones in E.164. Accepts what people paste ("+1 (213) 373-4253",
 * "00 44 7400 123456") and returns "+12133734253", or null when it is not a number.
 */
export function normalisePhone(input: string | null | undefined): string | null {
  if (!input) return null;
  const cleaned = input.trim().replace(/^00/, "+");
  if (!cleaned) return null;
  const parsed = parsePhoneNumberFromString(cleaned.startsWith("+") ? cleaned : `+${cleaned}`);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * The original requirement reads "exactly 15 characters matching a phone pattern"; literally
 * that rejects valid numbers of most countries (a US number in E.164 has 12), so we check what the
 * rule is for: a real number within E.164's 15-digit ceiling. See docs/frontend.md.
 */
export function isValidPhone(value: string | null | undefined): boolean {
  if (!value) return false;
  const digits = value.replace(/\D/g, "");
  return digits.length <= 15 && isValidPhoneNumber(value);
}

/** antd Form rule; `required` decides whether an empty value passes. */
export function phoneRule(required: boolean) {
  return {
    validator: (_: unknown, value: string | undefined) => {
      if (!value) return required ? Promise.reject(new Error(PHONE_INVALID)) : Promise.resolve();
      return isValidPhone(value) ? Promise.resolve() : Promise.reject(new Error(PHONE_INVALID));
    },
  };
}
