/** Credit packages (business rules): discounted in the first days after sign-up, list price after. */
export interface CreditPackage {
  sku: 'credits500' | 'credits1000' | 'credits5000';
  credits: number;
  /** Decimal strings in the payment currency. */
  price: string;
  listPrice: string;
}

export const PACKAGES: readonly CreditPackage[] = [
  { sku: 'credits500', credits: 500, price: '50.00', listPrice: '100.00' },
  { sku: 'credits1000', credits: 1000, price: '95.00', listPrice: '190.00' },
  { sku: 'credits5000', credits: 5000, price: '450.00', listPrice: '900.00' },
];

export const SKUS = PACKAGES.map((p) => p.sku);

export function findPackage(sku: unknown): CreditPackage | undefined {
  return PACKAGES.find((p) => p.sku === sku);
}

/** End of the first-month discount for an account created at `createdAt` (discountDays from config). */
export function discountEndsAt(createdAt: Date, discountDays: number): Date {
  return new Date(createdAt.getTime() + discountDays * 86_400_000);
}

export function discountActive(createdAt: Date, discountDays: number, now = new Date()): boolean {
  return now < discountEndsAt(createdAt, discountDays);
}

/** The price the user pays now. */
export function priceFor(pkg: CreditPackage, createdAt: Date, discountDays: number, now = new Date()): string {
  return discountActive(createdAt, discountDays, now) ? pkg.price : pkg.listPrice;
}
