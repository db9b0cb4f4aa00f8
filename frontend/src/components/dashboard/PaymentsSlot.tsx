/**
 * The dashboard's place for what the payments feature shows there: the first-month discount
 * banner ('Credits purchased in the first month are available at a 50% discount!'), the
 * buy-credits packages and the payment-result modal (query parameter PaymentResult).
 * Empty until that feature fills it; the dashboard renders it between the cards and nothing else.
 */
export function PaymentsSlot() {
  return null;
}
