import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

export const NUL_MESSAGE = 'Text must not contain NUL characters (\\u0000)';

/**
 * PostgreSQL text cannot hold U+0000: a query with one fails inside the driver (22021 for
 * text, 22P05 for jsonb), which would answer 500. A string anywhere in a body, query or
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
 * How deep a JSON body may nest. Our own bodies nest a few levels and a provider's webhook
 * about ten; thousands of levels only exhaust the stack of every recursive walker after the
 * parser (class-transformer, the idempotency fingerprint), which would answer 500.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether objects and arrays nest deeper than `max` levels; walked without recursion, so any depth is measured. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Runs right after the JSON parser: a body nested too deeply is refused before anything walks it. */
export function jsonDepthLimit(max = MAX_JSON_DEPTH) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!nestedDeeperThan(req.body, max)) return next();
    next(new BadRequestException({ message: `The request body is nested too deeply (at most ${max} levels)`, code: 'too_deep' }));
  };
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
