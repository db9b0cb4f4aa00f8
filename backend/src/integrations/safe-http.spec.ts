import { checkUrl, isPrivateAddress } from './safe-http';

describe('safe-http', () => {
  it.each(['127.0.0.1', '10.1.2.3', '192.168.0.9', '172.20.0.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0'])(
    '%s is private',
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  it.each(['8.8.8.8', '93.184.216.34', '2606:2800:220:1::1'])('%s is public', (a) => expect(isPrivateAddress(a)).toBe(false));

  it('checkUrl: https only, no credentials, no literal private IPs unless allowed', () => {
    expect(() => checkUrl('http://shop.example.com', false)).toThrow('Only https://');
    expect(() => checkUrl('https://127.0.0.1/x.png', false)).toThrow('private or loopback');
    expect(() => checkUrl('https://u:p@shop.example.com', false)).toThrow('credentials');
    expect(() => checkUrl('file:///etc/passwd', true)).toThrow('Only https://');
    expect(checkUrl('http://127.0.0.1:8080/x.png', true).port).toBe('8080');
  });
});
