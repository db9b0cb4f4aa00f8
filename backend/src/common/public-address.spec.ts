import { isPublicAddress } from './public-address';

describe('isPublicAddress', () => {
  it.each([
    ['loopback, private, link-local, CGNAT, reserved IPv4', ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '198.18.0.1', '240.0.0.1', '255.255.255.255', '224.0.0.1']],
    ['special IPv6', ['::', '::1', 'fd00::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '2001:db8::1', '100::1']],
    ['IPv4-mapped private', ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe']],
    // ::/96: URL parsing writes [::127.0.0.1] as ::7f00:1; a public IPv4 inside is refused too.
    ['IPv4-compatible (::/96)', ['::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::808:808', '::8.8.8.8', '::2']],
    ['NAT64, SIIT, 6to4, Teredo', ['64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::a00:1', '::ffff:0:7f00:1', '2002:7f00:1::1', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2']],
    ['not an address', ['not-an-ip', '0x7f.1', '127.1', '']],
  ])('%s: not public', (_what, list) => {
    for (const a of list) expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: false });
  });

  it('public IPv4, IPv6 and IPv4-mapped public addresses are public', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:808:808'])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: true });
  });
});
