/**
 * An amount of money in the seller's locale (the browser's language): whole amounts without
 * cents ("$95"), otherwise the currency's usual decimals ("$1,234.50"). An unknown currency
 * code falls back to "12.00 XYZ" rather than breaking the screen.
 */
export function money(amount: number, currency = "USD", locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      ...(Number.isInteger(amount) ? { minimumFractionDigits: 0 } : {}),
    }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
