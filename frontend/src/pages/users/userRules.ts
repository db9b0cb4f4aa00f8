import type { Rule } from "antd/es/form";
import { phoneRule } from "../../lib/phone";

// Admin "New user" form. Every message names the field by its label as the form shows it
// ("First Name is a required field"), never by its key.
const required = (label: string): Rule => ({ required: true, whitespace: true, message: `${label} is a required field` });
const min = (label: string, n: number): Rule => ({ min: n, message: `${label} must be at least ${n} characters` });
const email: Rule = { type: "email", message: "Email must be a valid email" };

export const newUserRules: Record<"email" | "password" | "firstName" | "lastName" | "company" | "username" | "phone", Rule[]> = {
  email: [required("Email"), email],
  password: [required("Password"), min("Password", 6)],
  firstName: [required("First Name"), min("First Name", 3)],
  lastName: [required("Last Name"), min("Last Name", 3)],
  company: [min("Company", 3)],
  username: [required("Username"), min("Username", 3)],
  phone: [phoneRule(true)],
};

/** Edit user: everything optional; email valid when given; role admin or user. */
export const editUserRules: Record<"email" | "role", Rule[]> = {
  email: [email],
  role: [{ type: "enum", enum: ["admin", "user"], message: "Role must be admin or user" }],
};

/** Credit: the available credits, required, a positive integer. */
export const creditRules: Rule[] = [
  { required: true, message: "Available credits is a required field" },
  {
    validator: (_, value) =>
      value === undefined || value === null || (Number.isInteger(value) && value > 0)
        ? Promise.resolve()
        : Promise.reject(new Error("Available credits must be a positive integer")),
  },
];
