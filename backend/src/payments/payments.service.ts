import { Injectable, NotFoundException } from '@nestjs/common';
import { paginate } from '../common/pagination';
import { PaymentListQueryDto, toPaymentDto } from './dto/payment.dto';
import { Payment, PaymentMethod, PaymentStatus } from './entities/payment.entity';
import { PaymentsRepository } from './payments.repository';

/**
 * Reading payments: the user's own history and one payment, the admin's lists. The other jobs
 * of the feature live beside it: what can be bought (PaymentCatalogueService), the provider's
 * checkout (CheckoutService), its webhook (PayPalWebhookService), status changes and credits
 * (PaymentSettlementService), the safety net (PaymentReconciliationService), bank transfers
 * (BankTransfersService); the SQL in PaymentsRepository.
 */
@Injectable()
export class PaymentsService {
  constructor(private readonly payments: PaymentsRepository) {}

  async list(userId: string | null, q: PaymentListQueryDto, statuses?: PaymentStatus[], method?: PaymentMethod) {
    const limit = q.limit ?? 10;
    const page = q.page ?? 1;
    const [rows, total] = await this.payments.page({ userId, q, statuses, method }, page, limit);
    return paginate(rows.map(toPaymentDto), total, limit);
  }

  /** The user's own payment; anyone else's is 404. */
  async getOwn(userId: string, id: string): Promise<Payment> {
    const p = await this.payments.findOwn(userId, id);
    if (!p) throw new NotFoundException('Payment not found');
    return p;
  }
}
