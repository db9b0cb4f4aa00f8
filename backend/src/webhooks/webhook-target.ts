import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, LookupFunction } from 'node:net';

/**
 * Where a webhook may be sent. Endpoints resolving to loopback, private, link-local,
 * carrier-grade NAT, multicast or reserved addresses are refused (a seller must not make our
 * server call into its own network). Checked when the endpoint is saved and again at every
 * connection (the address the socket uses), so a DNS answer that changes later does not help.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:1.2.3.4, or ::ffff:102:304 as URL parsing writes it): judge the IPv4 address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
    } catch {
      throw new WebhookTargetError(`The host ${host} could not be resolved`);
    }
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad) throw new WebhookTargetError(`Webhook URLs must point to a public address; ${host} resolves to ${bad}`);
  return url;
}

/** A DNS lookup for http.request that refuses non-public addresses at connection time. */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addrs) => {
      const list = addrs as unknown as LookupAddress[];
      if (err) return (callback as any)(err);
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) return (callback as any)(new WebhookTargetError(`${hostname} resolves to a non-public address (${bad.address})`));
      if ((options as { all?: boolean }).all) return (callback as any)(null, list);
      (callback as any)(null, list[0].address, list[0].family);
    });
  };
}
