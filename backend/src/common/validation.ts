import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import type { FastifyInstance } from 'fastify';

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

/** The largest JSON body accepted (as Express's JSON parser had it): layouts of hundreds of copies fit. */
export const JSON_BODY_LIMIT = 100 * 1024;

/**
 * The API's JSON parser: `application/json` bodies of objects or arrays (an empty body is `{}`),
 * refused in our words with a code when they are not JSON or nest deeper than `maxDepth`
 * (before anything walks them). Bodies of other types are left unread: no route takes them,
 * and a handler sees no body, as it would see none of a type it does not parse.
 */
export function useJsonBodies(fastify: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT }, (_req, text, done) => {
    const body = (text as string).trim();
    if (!body) return done(null, {});
    // Strict, as before: only an object or an array is a request body.
    let value: unknown;
    try {
      if (body[0] !== '{' && body[0] !== '[') throw new SyntaxError('not an object or array');
      value = JSON.parse(body);
    } catch {
      return done(new BadRequestException({ message: 'The request body is not valid JSON', code: 'invalid_json' }), undefined);
    }
    if (nestedDeeperThan(value, maxDepth)) {
      return done(new BadRequestException({ message: `The request body is nested too deeply (at most ${maxDepth} levels)`, code: 'too_deep' }), undefined);
    }
    done(null, value);
  });
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}

/** One invalid field of a refused request: its path in the body or query, why, and the text the UI shows. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** What a field's refusal is called: a few constraints by their meaning, the rest by their name in snake_case. */
const CONSTRAINT_CODES: Record<string, string> = {
  isNotEmpty: 'required',
  isDefined: 'required',
  whitelistValidation: 'unknown_field',
};
export const constraintCode = (name: string) => CONSTRAINT_CODES[name] ?? name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

const childPath = (parent: string, property: string) => (/^\d+$/.test(property) ? `${parent}[${property}]` : parent ? `${parent}.${property}` : property);

/**
 * One entry per field: the constraint of the decorator written first (top-most) on the
 * property, so "is required" wins over "must be at least 3 characters" for an empty value.
 * class-validator lists constraints bottom-up, hence the last entry. A field the DTO does
 * not declare is named in its message.
 */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = childPath(parent, e.property);
    if (!e.constraints) return fieldErrors(e.children ?? [], field);
    const [name, text] = Object.entries(e.constraints).at(-1)!;
    const message = name === 'whitelistValidation' ? `Unknown field "${field}"` : text;
    return [{ field, code: constraintCode(name), message }];
  });
}

/** The 400 of a refused body or query: the messages joined for the UI, one `errors` entry per field. */
export function validationFailed(errors: ValidationError[]): BadRequestException {
  const list = fieldErrors(errors);
  return new BadRequestException({ message: list.map((e) => e.message).join('. '), code: 'validation_failed', errors: list });
}

const ACCEPT_UNKNOWN_FIELDS = Symbol('acceptUnknownFields');

/**
 * On a body DTO that describes a payload someone else defines (a shop's callback): fields it
 * does not declare are dropped instead of refused, so a new field there breaks nothing here.
 */
export const AcceptUnknownFields = (): ClassDecorator => (target) => Reflect.defineMetadata(ACCEPT_UNKNOWN_FIELDS, true, target);

const options = (forbidUnknown: boolean): ValidationPipeOptions => ({
  whitelist: true,
  forbidNonWhitelisted: forbidUnknown,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  exceptionFactory: validationFailed,
});

/**
 * The global pipe: NUL characters refused for every body, query and route parameter, then
 * class-validator. A body field the DTO does not declare is refused (a typo would otherwise
 * be ignored without a word); query parameters it does not declare are dropped.
 */
class AppValidationPipe extends ValidationPipe {
  private readonly lenient = new ValidationPipe(options(false));
  /**
   * Query classes that an empty query string has passed. Such a query becomes the same fresh
   * instance every time, so a list read without parameters is built again but not validated
   * again; any parameter sends the query through the whole pipe.
   */
  private readonly emptyQueryPasses = new WeakSet<object>();

  constructor() {
    super(options(true));
  }

  override async transform(value: unknown, metadata: ArgumentMetadata) {
    // 'custom' parameters are our own decorators (the signed-in user), not client input.
    if (metadata.type !== 'custom' && containsNul(value)) throw new BadRequestException({ message: NUL_MESSAGE, code: 'nul_character' });
    const metatype = metadata.metatype;
    const emptyQuery = metadata.type === 'query' && !!metatype && isEmptyObject(value);
    if (emptyQuery && this.emptyQueryPasses.has(metatype)) return plainToInstance(metatype, {}, options(false).transformOptions);
    const strict = metadata.type === 'body' && !(metatype && Reflect.getMetadata(ACCEPT_UNKNOWN_FIELDS, metatype));
    const out = await (strict ? super.transform(value, metadata) : this.lenient.transform(value, metadata));
    if (emptyQuery && out instanceof metatype) this.emptyQueryPasses.add(metatype);
    return out;
  }
}

/** An object with no keys of its own (a query string with no parameters); not an array or bytes. */
function isEmptyObject(value: unknown): value is Record<string, never> {
  if (!value || typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value)) return false;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return false;
  return true;
}

/** The same pipe in main.ts, worker-free tests and e2e. */
export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe();
}
