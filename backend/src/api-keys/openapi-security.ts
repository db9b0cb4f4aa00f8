import { INestApplication, RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ThrottlerGuard } from '@nestjs/throttler';
import { ModulesContainer } from '@nestjs/core';
import { OpenAPIObject } from '@nestjs/swagger';
import { IS_PUBLIC, ROLES } from '../auth/auth.decorators';
import { codeForStatus } from '../common/http-exception.filter';
import { SESSION_ONLY } from './session-only.guard';
import { LIVE_ONLY_MESSAGE, liveOnlyRoute, TEST_MODE_NOT_SUPPORTED } from './test-mode.decorators';

export const COOKIE_SCHEME = 'cookie';
export const KEY_SCHEME = 'api-key';

type Operation = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface RouteFacts {
  isPublic: boolean;
  sessionOnly: boolean;
  /** The status of a success: @HttpCode's, else Nest's default (201 for POST, 200 otherwise). */
  successStatus?: number;
  /** Behind @nestjs/throttler's guard (sign-in, sign-up, share links): 429 past its limits. */
  throttled?: boolean;
}

/** How each route (by operation id = handler name) may be called and answers, read from the routes' own metadata. */
function routeAccess(app: INestApplication): Map<string, RouteFacts> {
  const out = new Map<string, RouteFacts>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as any;
      if (!cls?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(cls.prototype)) {
        if (name === 'constructor') continue;
        const fn = cls.prototype[name];
        if (typeof fn !== 'function') continue;
        const flag = (key: string) => !!(Reflect.getMetadata(key, fn) ?? Reflect.getMetadata(key, cls));
        // admin routes are session-only too: a key always acts as a seller
        const roles: unknown[] = Reflect.getMetadata(ROLES, fn) ?? Reflect.getMetadata(ROLES, cls) ?? [];
        const method: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, fn);
        const successStatus: number | undefined = Reflect.getMetadata(HTTP_CODE_METADATA, fn) ?? (method === undefined ? undefined : method === RequestMethod.POST ? 201 : 200);
        const guards: unknown[] = [...(Reflect.getMetadata(GUARDS_METADATA, fn) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, cls) ?? [])];
        const throttled = guards.some((g) => g === ThrottlerGuard);
        out.set(name, { isPublic: flag(IS_PUBLIC), sessionOnly: flag(SESSION_ONLY) || roles.length > 0, successStatus, throttled });
      }
    }
  }
  return out;
}

const EXAMPLE_REQUEST_ID = '3f1c9a2e-7b4d-4e0a-9c61-2b7f4f1c9a10';
const REQUEST_ID_HEADER = { 'Request-Id': { $ref: '#/components/headers/RequestId' } };
/** On every answer to an API key (not to a browser session). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};
const RETRY_AFTER_HEADER = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
const REPLAYED_HEADER = { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };

const error = (description: string, example: { statusCode: number; code: string; message: string; errors?: unknown[] }) => ({
  description,
  headers: REQUEST_ID_HEADER,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example: { ...example, requestId: EXAMPLE_REQUEST_ID } } },
});

/**
 * Errors a route answers that its controller does not declare, by operation id: status, code
 * and message (the e2e contract check fails a suite on a status an operation does not declare).
 */
const NOT_EDITABLE: [number, string, string] = [409, 'invalid_status', 'Items can be changed only while the print is In Draft or Deleted.'];
const NOT_PROCESSABLE: [number, string, string] = [409, 'invalid_status', 'This print is Processing; only a print that is In Draft or Deleted can be processed.'];
const NOT_DELETABLE: [number, string, string] = [409, 'invalid_status', 'A print can be deleted only when it is Completed, In Draft or Deleted.'];
const DOCUMENTED_ERRORS: Record<string, Array<[number, string, string]>> = {
  register: [[409, 'email_taken', 'Email is already registered']],
  login: [
    [401, 'invalid_credentials', 'Invalid email/username or password'],
    [403, 'email_not_verified', 'Please verify your email before logging in. We have sent you a new verification link.'],
  ],
  createUser: [[409, 'email_taken', 'Email is already registered']],
  updateUser: [[409, 'email_taken', 'Email is already registered']],
  createSize: [[409, 'size_exists', 'Size already exists']],
  updateSize: [[409, 'size_exists', 'Size already exists']],
  deleteSize: [[409, 'size_in_use', '"Adult front" is used by a print.']],
  createImageCategory: [[409, 'category_exists', 'Category already exists']],
  updateImageCategory: [[409, 'category_exists', 'Category already exists']],
  createSheetPreset: [[409, 'preset_exists', 'A preset with this name already exists']],
  createIntegration: [[409, 'shop_already_exists', 'Shop already exists.']],
  uploadImages: [[404, 'not_found', 'Category not found']],
  bulkUpdateImages: [[404, 'not_found', 'Category not found']],
  bulkDeleteImages: [
    [404, 'not_found', 'Image not found'],
    [409, 'image_in_draft_print', '"Tiger head" is used by a print that is not completed. Remove it from the print first.'],
  ],
  createPrint: [
    [404, 'not_found', 'Image not found'],
    [409, 'external_id_taken', 'You already have a print with externalId "order-5012": 3f1c9a2e-7b4d-4e0a-9c61-2b7f4f1c9a10.'],
  ],
  previewDraftPrint: [[404, 'not_found', 'Image not found']],
  addPrintItem: [NOT_EDITABLE],
  updatePrintItem: [NOT_EDITABLE],
  deletePrintItem: [NOT_EDITABLE],
  processPrint: [NOT_PROCESSABLE],
  proccessPrint: [NOT_PROCESSABLE],
  cancelPrint: [[409, 'invalid_status', 'This print is Completed; only a print that is Processing can be cancelled.']],
  deletePrint: [NOT_DELETABLE],
  forceDeletePrint: [NOT_DELETABLE],
  downloadPrintFile: [[410, 'gone', 'The files of this print have been deleted.']],
};

/** "listPrints" → "List prints": the fallback summary of a route that declares none. */
function humanize(operationId: string): string {
  const words = operationId.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function curlExample(method: string, path: string, op: Operation, viaKey: boolean): string {
  const url = '$GS' + path.replace(/\{(\w+)\}/g, (_m, p) => `$${p.toUpperCase()}`);
  const parts = ['curl'];
  if (method !== 'get') parts.push(`-X ${method.toUpperCase()}`);
  if (viaKey) parts.push('-H "Authorization: Bearer $KEY"');
  const content = op.requestBody?.content ?? {};
  if (content['multipart/form-data']) parts.push('-F files=@logo.png');
  else if (content['application/json']) parts.push(`-H 'Content-Type: application/json' -d '{…}'`);
  if (op.parameters?.some((p: any) => p.name === 'Idempotency-Key')) parts.push('-H "Idempotency-Key: $(uuidgen)"');
  parts.push(url);
  return parts.join(' ');
}

/**
 * Completes the generated document for integrators: both security schemes (cookie session,
 * bearer API key) on every route that takes them, a summary, the error answers and a curl
 * example on every route, one error schema with examples, and the Request-Id header of every answer.
 */
export function documentApiAccess(app: INestApplication, doc: OpenAPIObject): OpenAPIObject {
  const access = routeAccess(app);
  doc.components ??= {};
  doc.components.securitySchemes = {
    ...(doc.components.securitySchemes ?? {}),
    [COOKIE_SCHEME]: { type: 'apiKey', in: 'cookie', name: 'gs_session', description: 'The browser session (POST /api/login). Mutations also need our Origin; uploads X-Requested-With.' },
    [KEY_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'gsk_…',
      description: 'An API key from the profile (API keys). Read keys may only GET. Never reaches admin routes. See docs/api.md.',
    },
  };
  doc.components.schemas = {
    ...(doc.components.schemas ?? {}),
    ErrorResponse: {
      type: 'object',
      required: ['statusCode', 'code', 'message'],
      properties: {
        statusCode: { type: 'integer', example: 404, description: 'The HTTP status again' },
        code: {
          type: 'string',
          example: 'not_found',
          description: 'For programs: stable, snake_case. The route\'s own (e.g. insufficient_credits, invalid_status) where it names one, else the status\'s (validation_failed, unauthorized, forbidden, not_found, conflict, rate_limited…). docs/api.md lists them.',
        },
        message: { type: 'string', example: 'Print not found', description: 'For people: can be shown as is' },
        requestId: { type: 'string', example: EXAMPLE_REQUEST_ID, description: 'The Request-Id header of this response: quote it when reporting a problem' },
        errors: {
          type: 'array',
          description: 'On validation_failed: one entry per invalid field',
          items: { $ref: '#/components/schemas/FieldError' },
        },
        details: {
          type: 'object',
          additionalProperties: true,
          description: 'Facts of this error for programs, where its code has any: order_item_in_print lists the items and the prints they are in ({orderItems: [{_id, printIds}]}); the health check\'s 503 names each check\'s state ({database, queue, storage})',
        },
      },
    },
    FieldError: {
      type: 'object',
      required: ['field', 'code', 'message'],
      properties: {
        field: { type: 'string', example: 'printItems[0].quantity', description: 'Path of the field in the body or query' },
        code: { type: 'string', example: 'required', description: 'required, unknown_field, or the failed rule (min, max_length, is_enum…)' },
        message: { type: 'string', example: 'Quantity is required' },
      },
    },
  };
  // What any route may answer whatever it does: declared once, referenced by every operation.
  doc.components.responses = {
    ...(doc.components.responses ?? {}),
    InternalError: error("An unexpected failure (internal_error): what went wrong is in the server's log under the request id, never in the answer", {
      statusCode: 500,
      code: 'internal_error',
      message: 'An error occurred',
    }),
    Busy: error('The database is saturated (busy): retry shortly', { statusCode: 503, code: 'busy', message: 'The server is busy. Please try again in a moment.' }),
    PayloadTooLarge: error("The JSON body is over the parser's limit (payload_too_large)", { statusCode: 413, code: 'payload_too_large', message: 'The request body is too large' }),
  };
  doc.components.headers = {
    ...(doc.components.headers ?? {}),
    RequestId: {
      description: "Names the request (in the server's logs too): the client's X-Request-Id when valid (1–200 of A–Z a–z 0–9 . _ : -), else a new UUID",
      required: true,
      schema: { type: 'string' },
    },
    RateLimitLimit: { description: 'Answers to an API key: requests the key may make per window (API_KEY_RATE_LIMIT)', schema: { type: 'integer', example: 600 } },
    RateLimitRemaining: { description: 'Answers to an API key: requests left in this window', schema: { type: 'integer', example: 597 } },
    RateLimitReset: { description: 'Answers to an API key: seconds until the window starts again', schema: { type: 'integer', example: 42 } },
    RetryAfter: { description: 'Seconds to wait before sending again', schema: { type: 'integer', example: 12 } },
    IdempotentReplayed: {
      description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key (nothing was done again)',
      schema: { type: 'string', enum: ['true'] },
    },
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as any)[method] as Operation | undefined;
      if (!op) continue;
      const a: RouteFacts = access.get(op.operationId) ?? { isPublic: false, sessionOnly: false };
      op.responses ??= {};
      // A success declared as 200 on a route that answers 201 (a POST without @HttpCode), or the reverse.
      const success = a.successStatus && String(a.successStatus);
      if ((success === '200' || success === '201') && !op.responses[success]) {
        const other = success === '200' ? '201' : '200';
        if (op.responses[other]) {
          op.responses[success] = { ...op.responses[other], description: op.responses[other].description === 'Created' ? 'OK' : op.responses[other].description };
          delete op.responses[other];
        }
      }
      op.security = a.isPublic ? [] : a.sessionOnly ? [{ [COOKIE_SCHEME]: [] }] : [{ [COOKIE_SCHEME]: [] }, { [KEY_SCHEME]: [] }];
      op.summary ??= humanize(op.operationId);
      const add = (status: string, value: unknown) => (op.responses[status] ??= value);
      const honoursKey = op.parameters?.some((p: any) => p.name === 'Idempotency-Key');
      const refusesKey = (method === 'post' || method === 'patch') && !honoursKey;
      if (op.requestBody || refusesKey || honoursKey || op.parameters?.some((p: any) => p.in === 'query' || p.in === 'path'))
        add(
          '400',
          error(
            refusesKey
              ? 'The request is not valid (validation_failed, one entry per field in errors; a field the route does not take is refused), or it carries an Idempotency-Key, which this route does not honour (idempotency_not_supported)'
              : `The request is not valid (validation_failed, one entry per field in errors; a body field the route does not take is refused)${honoursKey ? ', or its Idempotency-Key is not 1 to 255 visible characters (invalid_idempotency_key)' : ''}`,
            { statusCode: 400, code: 'validation_failed', message: 'Name is required', errors: [{ field: 'name', code: 'required', message: 'Name is required' }] },
          ),
        );
      if (!a.isPublic && !a.sessionOnly && liveOnlyRoute(method.toUpperCase(), path))
        add(
          '403',
          error('A test key: test mode cannot buy credits or act on shops, orders and production (test_mode_not_supported); or a read-only key, or a cross-site cookie request', {
            statusCode: 403,
            code: TEST_MODE_NOT_SUPPORTED,
            message: LIVE_ONLY_MESSAGE,
          }),
        );
      if (!a.isPublic) {
        add('401', error('No session (unauthorized), or the API key is malformed, unknown, revoked or expired (invalid_api_key)', { statusCode: 401, code: 'invalid_api_key', message: 'This API key has been revoked.' }));
        add(
          '403',
          error(
            method === 'get' ? 'Not allowed for this user (admin routes), or an API key on a session-only route' : 'A read-only key, a cross-site cookie request, or a route this user may not use',
            method === 'get'
              ? { statusCode: 403, code: 'forbidden', message: 'You are not authorized to view this page' }
              : { statusCode: 403, code: 'read_only_key', message: 'This API key is read-only. Use a read-write key to make changes.' },
          ),
        );
        if (!a.sessionOnly)
          add('429', error('Too many requests with this API key, or too many invalid keys from this address (see Retry-After)', { statusCode: 429, code: 'rate_limited', message: 'Too many requests with this API key. Try again in 12 s.' }));
      }
      // The cross-site check refuses a cookie request from another origin on any change.
      if (method !== 'get') add('403', error('A cookie request from another site', { statusCode: 403, code: 'bad_origin', message: 'Cross-site requests are not allowed' }));
      if (a.throttled) add('429', error('Too many attempts from this address or for this account (see Retry-After)', { statusCode: 429, code: 'rate_limited', message: 'Too many attempts. Please try again later.' }));
      for (const [status, code, message] of DOCUMENTED_ERRORS[op.operationId] ?? []) {
        // A status the route declares already (an Idempotency-Key's 409…) names this case too.
        const declared = op.responses[String(status)];
        if (declared && !declared.$ref && !String(declared.description).includes(code)) declared.description = `${declared.description}; ${message} (${code})`;
        add(String(status), error(message, { statusCode: status, code, message }));
      }
      if (path.includes('{')) add('404', error('Not found, or not yours', { statusCode: 404, code: 'not_found', message: 'Not found' }));
      if (op.requestBody?.content?.['application/json']) add('413', { $ref: '#/components/responses/PayloadTooLarge' });
      add('500', { $ref: '#/components/responses/InternalError' });
      add('503', { $ref: '#/components/responses/Busy' });
      if (op.responses['422']) op.responses['422'] = error(op.responses['422'].description, { statusCode: 422, code: 'idempotency_key_reused', message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.' });
      for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>) {
        if (response.$ref) continue;
        // Every answer names its request; answers to a key say how much of its rate is left.
        response.headers = {
          ...REQUEST_ID_HEADER,
          ...(!a.isPublic && !a.sessionOnly && RATE_LIMIT_HEADERS),
          ...(status === '429' && RETRY_AFTER_HEADER),
          ...(honoursKey && Number(status) < 400 && REPLAYED_HEADER),
          ...(response.headers ?? {}),
        };
        // An error a route documents itself gets the whole shape in its example.
        const json = response.content?.['application/json'];
        if (json?.schema?.$ref === '#/components/schemas/ErrorResponse' && json.example)
          json.example = { ...json.example, code: json.example.code ?? codeForStatus(json.example.statusCode), requestId: json.example.requestId ?? EXAMPLE_REQUEST_ID };
      }
      const example = curlExample(method, path, op, !a.isPublic && !a.sessionOnly);
      op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: example }];
      if (!op.description?.includes('```')) op.description = `${op.description ? op.description + '\n\n' : ''}Example:\n\n\`\`\`sh\n${example}\n\`\`\``;
    }
  }
  return doc;
}
