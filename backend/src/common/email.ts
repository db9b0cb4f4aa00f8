import { IsEmail, ValidationOptions } from 'class-validator';

/**
 * One e-mail rule for every form and for ADMIN_EMAIL. A top-level domain is not required,
 * so the default admin `admin@localhost` and intranet addresses (`ops@printshop`) are
 * valid: a self-hosted install mails whatever its SMTP server delivers.
 */
export const EMAIL_RULE = { require_tld: false } as const;

export const IsAccountEmail = (options: ValidationOptions = { message: 'Invalid email address' }) => IsEmail(EMAIL_RULE, options);
