import { loadConfig } from '../config/configuration';
import { discountActive, findPackage, PACKAGES, priceFor } from './packages';

describe('credit packages', () => {
  const signup = new Date('2026-01-01T00:00:00Z');
  const day = 86_400_000;

  it('sells at the discounted price during the first 30 days and at list price after', () => {
    const p = findPackage('credits1000')!;
    expect(priceFor(p, signup, 30, new Date(signup.getTime() + 29 * day))).toBe('95.00');
    expect(priceFor(p, signup, 30, new Date(signup.getTime() + 30 * day))).toBe('190.00');
    expect(discountActive(signup, 30, new Date(signup.getTime() + 30 * day - 1))).toBe(true);
    expect(discountActive(signup, 0, signup)).toBe(false);
  });

  it('has the three packages of the business rules; anything else is unknown', () => {
    expect(PACKAGES.map((p) => [p.sku, p.credits, p.price, p.listPrice])).toEqual([
      ['credits500', 500, '50.00', '100.00'],
      ['credits1000', 1000, '95.00', '190.00'],
      ['credits5000', 5000, '450.00', '900.00'],
    ]);
    expect(findPackage('credits42')).toBeUndefined();
    expect(findPackage('toString')).toBeUndefined();
  });
});

describe('payment provider configuration', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/gs-config-spec' };
  const paypal = { PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_WEBHOOK_ID: 'WH-1' };

  it('test checkout by default, PayPal when its keys are set, none by default in production', () => {
    expect(loadConfig(base).payments.provider).toBe('test');
    const c = loadConfig({ ...base, ...paypal });
    expect(c.payments.provider).toBe('paypal');
    expect(c.payments.paypal.apiUrl).toBe('https://api-m.sandbox.paypal.com');
    expect(loadConfig({ ...base, ...paypal, PAYPAL_MODE: 'live' }).payments.paypal.apiUrl).toBe('https://api-m.paypal.com');
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).payments.provider).toBe('none');
    expect(loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }).payments.provider).toBe('test');
  });

  it('PayPal without its webhook id stops the start with the variables named', () => {
    expect(() => loadConfig({ ...base, PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's' })).toThrow(/PAYPAL_WEBHOOK_ID/);
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYPAL_CLIENT_ID/);
    expect(() => loadConfig({ ...base, PAYMENT_CURRENCY: 'dollars' })).toThrow(/PAYMENT_CURRENCY/);
  });
});
