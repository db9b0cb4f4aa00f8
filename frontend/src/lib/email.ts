import type { Rule } from "antd/es/form";

/**
 * The client-side e-mail check, as lenient as the server's rule (backend common/email.ts):
 * a top-level domain is not required, so the default admin `admin@localhost` can save
 * the profile and ask for a password reset code. The server has the final word.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/;

export const emailRule: Rule = { pattern: EMAIL_PATTERN, message: "Invalid email address" };
