import type { Rule } from "antd/es/form";
import { phoneRule } from "../../lib/phone";

// Admin "New user" form. Messages follow the validation library's generic style
// ("… is a required field") unless a specific wording is needed.
const required = (label: string): Rule => ({ required: true, whitespace: true, message: `${label} is a required field` });
const min = (label: string, n: number): Rule => ({ min: n, message: `${label} must be at least ${n} characters` });
const email: Rule = { type: "email", message: "email must be a valid email" };

export const newUserRules: Record<"email" | "password" | "firstName" | "lastName" | "company" | "username" | "phone", Rule[]> = {
  email: [required("email"), email],
  password: [required("password"), min("password", 6)],
  firstName: [required("firstName"), min("firstName", 3)],
  lastName: [required("lastName"), min("lastName", 3)],
  company: [min("company", 3)],
  username: [required("username"), min("username", 3)],
  phone: [phoneRule(true)],
};

/** Edit user: everything optional; email valid when given; role admin or user. */
export const editUserRules: Record<"email" | "role", Rule[]> = {
  email: [email],
  role: [{ type: "enum", enum: ["admin", "user"], message: "role must be admin or user" }],
};

/** Credit: availableCredits required, a positive integer. */
export const creditRules: Rule[] = [
  { required: true, message: "availableCredits is a required field" },
  {
    validator: (_, value) =>
      value === undefined || value === null || (Number.isInteger(value) && value > 0)
        ? Promise.resolve()
        : Promise.reject(new Error("availableCredits must be a positive integer")),
  },
];
