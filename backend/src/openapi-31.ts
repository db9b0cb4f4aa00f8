import { webhookDocument } from './webhooks/webhook-schemas';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Makes the generated document OpenAPI 3.1, whose schemas are JSON Schema: `nullable: true`
 * (3.0) becomes a `"null"` type, so a nullable reference (`allOf: [$ref]` + nullable, which
 * strict 3.0 validators read as "never null") accepts null in every validator and generator.
 */
export function toOpenApi31(doc: OpenAPIObject): OpenAPIObject {
  const fix = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(fix);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, any>;
    for (const v of Object.values(o)) fix(v);
    if (o.exclusiveMinimum === true) {
      o.exclusiveMinimum = o.minimum;
      delete o.minimum;
    }
    if (o.exclusiveMaximum === true) {
      o.exclusiveMaximum = o.maximum;
      delete o.maximum;
    }
    if (!('nullable' in o) || typeof o.nullable !== 'boolean') return;
    const nullable = o.nullable;
    delete o.nullable;
    if (!nullable) return;
    const composed = ['$ref', 'allOf', 'anyOf', 'oneOf'].some((k) => k in o);
    if (!composed && typeof o.type === 'string') {
      o.type = [o.type, 'null'];
      if (Array.isArray(o.enum)) o.enum = [...o.enum, null];
      return;
    }
    // A reference or a composition: either it, or null. Words about the field stay outside.
    // (`type` beside a composition adds nothing the referenced schema does not say.)
    const { description, example, title, default: dflt, type: _type, ...schema } = o;
    for (const k of Object.keys(o)) delete o[k];
    const inner = schema.allOf?.length === 1 && Object.keys(schema).length === 1 ? schema.allOf[0] : schema;
    Object.assign(o, { anyOf: [inner, { type: 'null' }] }, description !== undefined && { description }, example !== undefined && { example }, title !== undefined && { title }, dflt !== undefined && { default: dflt });
  };
  fix(doc.components?.schemas);
  fix(doc.paths);
  return { ...doc, openapi: '3.1.0' };
}

/** What each tag groups, for the document's reader (Swagger UI shows it above the routes). */
const TAGS: Record<string, string> = {
  auth: 'Sign up, log in, verify the e-mail, reset the password, the profile',
  'api-keys': 'Keys for integrations (managed with a browser session only)',
  images: 'Artwork: upload, inspect, search, categorise, replace, delete',
  'image-categories': 'Folders for artwork',
  sizes: 'Print sizes: the printed width of a design, in inches',
  'sheet-settings': 'Sheet settings and presets: film width, length, gap, margin, DPI, nesting, formats',
  prints: 'Gang sheets: create, preview, lay out, process, download, share',
  orders: 'Orders synced from the shops, and prints made from them',
  production: 'The production queue, batching rules and batches of shop orders',
  integrations: 'Shop connections (Etsy, WooCommerce) and their order sync',
  payments: 'Credit packages, checkout and payment history',
  webhooks: 'Signed event deliveries to your endpoints, and the events list to catch up',
  notifications: 'The bell: what happened to your prints, payments and orders',
  statistics: 'Dashboard figures',
  users: 'Administration of users and credits (admins)',
  health: 'Liveness and readiness of the service',
};

/**
 * Declares every tag the operations use (with a description), the server the document
 * describes and the webhook deliveries with their payloads, so linters, generated clients and
 * receivers find them.
 */
export function describeDocument(doc: OpenAPIObject, serverUrl: string): OpenAPIObject {
  const { schemas, webhooks } = webhookDocument();
  doc = { ...doc, webhooks, components: { ...doc.components, schemas: { ...doc.components?.schemas, ...schemas } } } as OpenAPIObject;
  const used = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op?.tags ?? [])));
  const tags = [...used].sort().map((name) => ({ name, description: TAGS[name] ?? `Routes of ${name.replace(/-/g, ' ')}` }));
  return { ...doc, tags, servers: [{ url: serverUrl, description: 'This installation (the app and its API share one origin; paths start with /api)' }] };
}
