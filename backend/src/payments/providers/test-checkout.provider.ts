import { randomBytes } from 'node:crypto';
import { PaymentMethod, PaymentType } from '../entities/payment.entity';
import { CaptureResult, CheckoutOrder, CreateOrderInput, PaymentProvider } from './payment-provider';

/**
 * The built-in test checkout of the embedded default: no money moves. The "approval page"
 * is served by the app itself (GET /api/checkout/test/{orderId}) and its Approve and
 * Cancel buttons go to the same return and cancel URLs a real provider would use, so the
 * rest of the flow (capture on return, exactly-once credit, result modal) is the real one.
 */
export class TestCheckoutProvider implements PaymentProvider {
  readonly method = PaymentMethod.Test;
  readonly type = PaymentType.Test;

  constructor(private readonly appUrl: string) {}

  async createOrder(_input: CreateOrderInput): Promise<CheckoutOrder> {
    const orderId = `TEST-${randomBytes(8).toString('hex').toUpperCase()}`;
    return { orderId, link: `${this.appUrl}/api/checkout/test/${orderId}` };
  }

  async capture(orderId: string): Promise<CaptureResult> {
    return { state: 'completed', captureId: `CAP-${orderId}`, amount: '', currency: '' };
  }
}
