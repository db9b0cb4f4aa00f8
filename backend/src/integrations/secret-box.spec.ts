import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  it('round-trips, never stores the plain text, and refuses another key or a tampered value', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal({ accessToken: '123.secret-token' });
    expect(sealed).not.toContain('secret-token');
    expect(box.open(sealed)).toEqual({ accessToken: '123.secret-token' });
    expect(box.seal({ a: 1 })).not.toBe(box.seal({ a: 1 }));
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(box.open(null)).toBeNull();
  });
});
