import { PING_EVENT, WEBHOOK_EVENTS, WebhookEvent } from './webhook-events';

/**
 * The JSON Schema of each event's `data` (webhook-events.ts has the same as TypeScript types):
 * the document lists them under OpenAPI 3.1 `webhooks`, one POST per event, and the e2e
 * receiver checks every delivery it gets against them.
 */
type Schema = Record<string, unknown>;
const str = (description?: string): Schema => ({ type: 'string', ...(description && { description }) });
const int = (description?: string): Schema => ({ type: 'integer', ...(description && { description }) });
const obj = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
});

const WEBHOOK_FILE = obj(
  {
    format: { type: 'string', enum: ['png', 'pdf'] },
    sheet: int('1-based sheet number'),
    n: int('The same as sheet'),
    url: str('GET with the same API key to download'),
    previewUrl: str(),
    bytes: int(),
    lengthIn: { type: 'number' },
    widthPx: int('PNG only'),
    heightPx: int('PNG only'),
    pageWidthIn: { type: 'number', description: 'PDF only' },
    pageHeightIn: { type: 'number', description: 'PDF only' },
  },
  ['widthPx', 'heightPx', 'pageWidthIn', 'pageHeightIn'],
);

/** A print's externalId and metadata, and whether it is a test print, in its events. */
const REFS = {
  externalId: { type: ['string', 'null'], description: 'Your reference, as given when the print was created' },
  metadata: { type: 'object', additionalProperties: { type: 'string' }, description: 'Your string pairs, as given when the print was created' },
  test: { type: 'boolean', description: 'A test print (made with a test key): the event is sent to test endpoints only' },
};

const EVENT_DATA: Record<WebhookEvent | typeof PING_EVENT, { summary: string; data: Schema }> = {
  'print.completed': {
    summary: "A print's sheets are ready: every file in every format",
    data: obj({ printId: str(), status: { const: 'Completed' }, printedAt: str(), filesExpireAt: str(), files: { type: 'array', items: { $ref: '#/components/schemas/WebhookFile' } }, ...REFS }),
  },
  'print.failed': {
    summary: 'Processing failed for good; the credits were refunded',
    data: obj({ printId: str(), status: { const: 'Error' }, error: str(), creditsRefunded: { type: 'boolean' }, ...REFS }),
  },
  'print.cancelled': {
    summary: 'Processing was stopped; the print is back In Draft and the credits were refunded',
    data: obj({ printId: str(), status: { const: 'In Draft' }, creditsRefunded: { type: 'boolean' }, ...REFS }),
  },
  'payment.completed': {
    summary: 'A credit purchase was paid',
    data: obj({ paymentId: str(), credits: int(), amount: str(), currency: str() }),
  },
  'order.synced': {
    summary: 'A shop order was imported',
    data: obj({ orderId: str(), source: str(), printId: { type: ['string', 'null'] } }, ['printId']),
  },
  'order.fulfilled': {
    summary: 'The order was updated in its shop (status and note, or the shipment with tracking)',
    data: obj({
      orderId: str(),
      orderNumber: str(),
      shop: str(),
      source: { type: 'string', enum: ['batch', 'manual'] },
      carrier: { type: ['string', 'null'] },
      trackingNumber: { type: ['string', 'null'] },
      fulfilledAt: str(),
    }),
  },
  'batch.created': {
    summary: 'A production batch was made: a print of type Batch holding these order items',
    data: obj({ printId: str(), trigger: str(), orders: int(), items: int(), copies: int(), status: str() }),
  },
  'batch.completed': {
    summary: "A production batch's print completed (its print.completed carries the files)",
    data: obj({ printId: str(), orderIds: { type: 'array', items: str() }, copies: int() }),
  },
  [PING_EVENT]: { summary: 'Send test event (sent to one endpoint; need not be subscribed to)', data: obj({ message: str() }) },
};

const schemaName = (event: string) => 'Event' + event.replace(/(^|\.)(\w)/g, (_m, _dot, c: string) => c.toUpperCase());

/** Components (one envelope per event) and the `webhooks` section of the document. */
export function webhookDocument(): { schemas: Record<string, Schema>; webhooks: Record<string, unknown> } {
  const schemas: Record<string, Schema> = { WebhookFile: WEBHOOK_FILE };
  const webhooks: Record<string, unknown> = {};
  for (const event of [...WEBHOOK_EVENTS, PING_EVENT] as Array<keyof typeof EVENT_DATA>) {
    const { summary, data } = EVENT_DATA[event];
    const name = schemaName(event);
    schemas[name] = obj({
      id: { type: 'string', format: 'uuid', description: 'The event id: the same on every retry and redelivery' },
      type: { const: event },
      createdAt: str(),
      livemode: { type: 'boolean', description: 'false: an event of test mode (a test print), sent to test endpoints only; a ping carries its endpoint\'s mode' },
      data,
    });
    webhooks[event] = {
      post: {
        summary,
        description: 'Signed with GangSheet-Signature (see docs/api.md); answer 2xx within 10 s.',
        operationId: `webhook${name.slice('Event'.length)}`,
        tags: ['webhooks'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: { '200': { description: 'Any 2xx: delivered' } },
      },
    };
  }
  return { schemas, webhooks };
}
