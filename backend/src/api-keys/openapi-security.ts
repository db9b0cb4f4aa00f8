import { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { OpenAPIObject } from '@nestjs/swagger';
import { IS_PUBLIC, ROLES } from '../auth/auth.decorators';
import { SESSION_ONLY } from './session-only.guard';

export const COOKIE_SCHEME = 'cookie';
export const KEY_SCHEME = 'api-key';

type Operation = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** How each route (by operation id = handler name) may be called, read from the routes' own metadata. */
function routeAccess(app: INestApplication): Map<string, { isPublic: boolean; sessionOnly: boolean }> {
  const out = new Map<string, { isPublic: boolean; sessionOnly: boolean }>();
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
        out.set(name, { isPublic: flag(IS_PUBLIC), sessionOnly: flag(SESSION_ONLY) || roles.length > 0 });
      }
    }
  }
  return out;
}

const error = (description: string, example: { statusCode: number; message: string; code?: string }) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example } },
});

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
 * example on every route, and one error schema with examples.
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
      required: ['statusCode', 'message'],
      properties: {
        statusCode: { type: 'integer', example: 404 },
        message: { type: 'string', example: 'Print not found', description: 'For people: can be shown as is' },
        code: { type: 'string', example: 'invalid_status', description: 'For programs, where the route names one' },
      },
    },
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as any)[method] as Operation | undefined;
      if (!op) continue;
      const a = access.get(op.operationId) ?? { isPublic: false, sessionOnly: false };
      op.security = a.isPublic ? [] : a.sessionOnly ? [{ [COOKIE_SCHEME]: [] }] : [{ [COOKIE_SCHEME]: [] }, { [KEY_SCHEME]: [] }];
      op.summary ??= humanize(op.operationId);
      op.responses ??= {};
      const add = (status: string, value: unknown) => (op.responses[status] ??= value);
      if (op.requestBody || op.parameters?.some((p: any) => p.in === 'query' || p.in === 'path'))
        add('400', error('The request is not valid', { statusCode: 400, message: 'Name is required' }));
      if (!a.isPublic) {
        add('401', error('No session, or the API key is malformed, unknown, revoked or expired', { statusCode: 401, message: 'This API key has been revoked.', code: 'invalid_api_key' }));
        add(
          '403',
          error(
            method === 'get' ? 'Not allowed for this user (admin routes), or an API key on a session-only route' : 'A read-only key, a cross-site cookie request, or a route this user may not use',
            method === 'get'
              ? { statusCode: 403, message: 'You are not authorized to view this page' }
              : { statusCode: 403, message: 'This API key is read-only. Use a read-write key to make changes.', code: 'read_only_key' },
          ),
        );
        if (!a.sessionOnly)
          add('429', { ...error('Too many requests with this API key (see Retry-After)', { statusCode: 429, message: 'Too many requests with this API key. Try again in 12 s.', code: 'rate_limited' }) });
      }
      if (path.includes('{')) add('404', error('Not found, or not yours', { statusCode: 404, message: 'Not found' }));
      if (op.responses['422']) op.responses['422'] = error(op.responses['422'].description, { statusCode: 422, message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.', code: 'idempotency_key_reused' });
      const example = curlExample(method, path, op, !a.isPublic && !a.sessionOnly);
      op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: example }];
      if (!op.description?.includes('```')) op.description = `${op.description ? op.description + '\n\n' : ''}Example:\n\n\`\`\`sh\n${example}\n\`\`\``;
    }
  }
  return doc;
}
