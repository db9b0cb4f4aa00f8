import TestAgent from 'supertest/lib/agent';
import { FakeEtsy } from '../fakes/etsy.fake';
import { FakeWooCommerce } from '../fakes/woocommerce.fake';

/** App settings that point the shops at the local fakes. */
export function shopEnv(woo: FakeWooCommerce | null, etsy: FakeEtsy | null, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SHOPS_ALLOW_PRIVATE_URLS: 'true',
    ORDER_SYNC_INTERVAL_MINUTES: '0',
    ORDER_SYNC_MAX_RETRY_WAIT_SECONDS: '3',
    ...(etsy ? { ETSY_API_URL: etsy.url, ETSY_CONNECT_URL: `${etsy.url}/oauth/connect`, ETSY_KEYSTRING: etsy.keystring, ETSY_SHARED_SECRET: etsy.sharedSecret } : {}),
    ...extra,
  };
}

export const wooKeys = (woo: FakeWooCommerce, o: { ck?: string; cs?: string; baseUrl?: string } = {}) => [
  { key: 'baseUrl', value: o.baseUrl ?? woo.baseUrl },
  { key: 'consumerKey', value: o.ck ?? woo.consumerKey },
  { key: 'consumerSecret', value: o.cs ?? woo.consumerSecret },
];

/** Starts a sync and waits until the integration reports it finished. */
export async function syncAndWait(agent: TestAgent, id: string, timeoutMs = 30_000) {
  const started = await agent.get(`/api/integrations/${id}/orders`).expect(200);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const i = (await agent.get(`/api/integrations/${id}`).expect(200)).body.data;
    if (i.syncStatus === 'done' || i.syncStatus === 'failed') return { started: started.body, integration: i };
    if (Date.now() > until) throw new Error(`sync of ${id} did not finish: ${JSON.stringify(i)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
