import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import { isIP, LookupFunction } from 'node:net';
import { isPublicAddress, urlHost } from '../common/public-address';

/*
 * Where a webhook may be sent: only to public addresses (isPublicAddress says which), so a
 * seller cannot make our server call into its own network. Checked when the endpoint is saved
 * and again at every connection (the address the socket uses), so a DNS answer that changes
 * later does not help.
 */

export class WebhookTargetError extends Error {}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))));
}

/** Refuses a URL that is not http(s) or whose host resolves to a non-public address. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('Enter a valid URL, e.g. https://example.com/webhooks/gangsheet');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookTargetError('The URL must start with https:// or http://');
  if (url.username || url.password) throw new WebhookTargetError('The URL must not contain a user name or password');
  if (allowPrivate) return url;
  const host = urlHost(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
    } catch {
      throw new WebhookTargetError(`The host ${host} could not be resolved`);
    }
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad) throw new WebhookTargetError(`Webhook URLs must point to a public address; ${host} resolves to ${bad}`);
  return url;
}

/** A DNS lookup for http.request that refuses non-public addresses at connection time. */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addrs) => {
      const list = addrs as unknown as LookupAddress[];
      if (err) return (callback as any)(err);
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) return (callback as any)(new WebhookTargetError(`${hostname} resolves to a non-public address (${bad.address})`));
      if ((options as { all?: boolean }).all) return (callback as any)(null, list);
      (callback as any)(null, list[0].address, list[0].family);
    });
  };
}
