import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/**
 * One message per field: the one of the decorator written first (top-most) on the
 * property, so "is required" wins over "must be at least 3 characters" for an empty value.
 * class-validator lists constraints bottom-up, hence the last entry.
 */
function firstMessages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => (e.constraints ? [Object.values(e.constraints).at(-1)!] : firstMessages(e.children ?? [])));
}

/** The same pipe in main.ts, worker-free tests and e2e: strip unknown fields, one message per field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new BadRequestException(firstMessages(errors)),
  });
}
