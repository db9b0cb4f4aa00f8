import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Whether an address is on the public internet, for every outgoing request whose target a
 * seller or a buyer chose (webhook endpoints, shop base URLs, design file links). Our server
 * must not be made to call into its own network: loopback, private, link-local, carrier-grade
 * NAT, multicast, documentation and other reserved ranges are refused (ipaddr.js names them;
 * only its `unicast` is public).
 *
 * IPv6 has several ways to carry an IPv4 address, and each is a way to write 127.0.0.1 or
 * 169.254.169.254 that a check of IPv6 ranges alone lets through. IPv4-mapped addresses
 * (::ffff:a.b.c.d, the form a dual-stack socket reports) are judged by the IPv4 address they
 * carry. Every other form is refused outright: IPv4-compatible (::/96, deprecated since
 * 2006; `[::127.0.0.1]` in a URL becomes ::7f00:1), NAT64 (64:ff9b::/96 and the local-use
 * 64:ff9b:1::/48), SIIT (::ffff:0:0:0/96), 6to4 (2002::/16) and Teredo (2001::/32) — a
 * public host has a native address, and these only reach IPv4 through a translator we do
 * not control.
 */
export function isPublicAddress(address: string): boolean {
  // net.isIP accepts only the canonical dotted and colon forms; ipaddr.js alone would also
  // read "0x7f.1" or "127.1" as IPv4, which DNS never answers and URL parsing normalises.
  const family = isIP(address);
  if (!family) return false;
  if (family === 4) return ipaddr.IPv4.parse(address).range() === 'unicast';
  // ipaddr.js reads any "::a.b.c.d" as IPv4-mapped, but it is IPv4-compatible (a resolver
  // may print ::7f00:1 that way): the dotted tail is spelled in hex first.
  const v6 = ipaddr.IPv6.parse(
    address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`),
  );
  if (v6.parts.slice(0, 6).every((p) => p === 0)) return false;
  if (v6.range() === 'ipv4Mapped') return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast';
}

/** The host of a parsed URL without the brackets of an IPv6 literal. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}
