import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

export const NUL_MESSAGE = 'Text must not contain NUL characters (\\u0000)';

/**
 * PostgreSQL text cannot hold U+0000: a query with one fails inside the driver (22021 for
 * text, 22P05 for jsonb) and used to surface as a 500. A string anywhere in a body, query or
 * route parameter with one is refused here, before any handler runs. `seen` guards cycles.
 */
export function containsNul(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (!value || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (Buffer.isBuffer(value)) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, seen));
}

/**
 * One message per field: the one of the decorator written first (top-most) on the
 * property, so "is required" wins over "must be at least 3 characters" for an empty value.
 * class-validator lists constraints bottom-up, hence the last entry.
 */
function firstMessages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => (e.constraints ? [Object.values(e.constraints).at(-1)!] : firstMessages(e.children ?? [])));
}

/** The global pipe: NUL characters refused for every body, query and route parameter, then class-validator. */
class AppValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata) {
    // 'custom' parameters are our own decorators (the signed-in user), not client input.
    if (metadata.type !== 'custom' && containsNul(value)) throw new BadRequestException({ message: NUL_MESSAGE, code: 'nul_character' });
    return super.transform(value, metadata);
  }
}

/** The same pipe in main.ts, worker-free tests and e2e: strip unknown fields, one message per field. */
export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new BadRequestException(firstMessages(errors)),
  });
}
