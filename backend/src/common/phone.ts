import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** The E.164 form of a phone number, or null when it is not a valid number. */
export function toE164(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), { defaultCallingCode: undefined });
  return parsed && parsed.isValid() ? parsed.number : null;
}

export function IsPhone(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isPhone',
      target: object.constructor,
      propertyName,
      options: { message: 'Phone number is not valid', ...options },
      validator: { validate: (v: unknown) => typeof v === 'string' && toE164(v) !== null },
    });
}
