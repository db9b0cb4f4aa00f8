import { PaymentMethod, PaymentType } from '../entities/payment.entity';

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

export interface CreateOrderInput {
  /** Our payment id: sent as custom_id/reference so every provider message names it. */
  paymentId: string;
  amount: string;
  currency: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
}

export interface CheckoutOrder {
  /** The provider's order id (arrives back as `token` on return/cancel). */
  orderId: string;
  /** Where the buyer approves the payment. */
  link: string;
}

export type CaptureResult =
  | { state: 'completed'; captureId: string; amount: string; currency: string; customId?: string }
  /** Money not taken yet (e.g. under review): the webhook finishes it. */
  | { state: 'pending'; captureId?: string }
  /**
   * The buyer has not approved the order (yet): the return URL was opened before approval,
   * by hand or by anyone holding the order id. Nothing changes; the buyer may still approve.
   */
  | { state: 'unapproved' }
  /** The buyer's payment failed. */
  | { state: 'declined'; reason: string };

/** A checkout provider: PayPal Orders v2, or the built-in test checkout. */
export interface PaymentProvider {
  readonly method: PaymentMethod;
  readonly type: PaymentType;
  createOrder(input: CreateOrderInput): Promise<CheckoutOrder>;
  /** Idempotent per payment: a retry returns the first result. */
  capture(orderId: string, paymentId: string): Promise<CaptureResult>;
  /**
   * Where an order stands at the provider, for the reconciliation of payments whose
   * buyer never came back and whose webhook never arrived. Absent: nothing to ask.
   */
  lookup?(orderId: string): Promise<OrderState>;
}

export type OrderState = CaptureResult | { state: 'approved' } | { state: 'open' } | { state: 'gone' };

/** Thrown when the provider cannot be reached or answers something we cannot use. */
export class ProviderError extends Error {}
