import { Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { JOB_RUNNER } from '../queue/queue.module';
import { JobName } from '../queue/jobs';
import { JobRunner } from '../queue/queue.types';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CheckoutController } from './checkout.controller';
import { PaymentsController } from './payments.controller';
import { BankTransfersService } from './bank-transfers.service';
import { CheckoutService } from './checkout.service';
import { PaymentCatalogueService } from './payment-catalogue.service';
import { PaymentReconciliationService } from './payment-reconciliation.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { PayPalWebhookService } from './paypal-webhook.service';
import { PAYMENT_PROVIDER, PaymentProvider } from './providers/payment-provider';
import { PayPalProvider } from './providers/paypal.provider';
import { TestCheckoutProvider } from './providers/test-checkout.provider';
import { WebhooksModule } from '../webhooks/webhooks.module';

/** Buying credits: the configured checkout provider (PayPal, the test checkout, or none). */
@Module({
  imports: [WebhooksModule],
  controllers: [PaymentsController, CheckoutController],
  providers: [
    PaymentsRepository,
    PaymentsService,
    PaymentCatalogueService,
    PaymentSettlementService,
    CheckoutService,
    PayPalWebhookService,
    PaymentReconciliationService,
    BankTransfersService,
    {
      provide: PAYMENT_PROVIDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): PaymentProvider | null => {
        const p = config.payments;
        if (p.provider === 'paypal') return new PayPalProvider(p.paypal);
        if (p.provider === 'test') return new TestCheckoutProvider('');
        return null;
      },
    },
  ],
  exports: [PaymentsService],
})
export class PaymentsModule implements OnModuleInit {
  private readonly logger = new Logger('Payments');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_RUNNER) private readonly jobs: JobRunner,
    private readonly reconciliation: PaymentReconciliationService,
    private readonly bankTransfers: BankTransfersService,
    private readonly catalogue: PaymentCatalogueService,
  ) {}

  /**
   * Nodes that run jobs reconcile unfinished checkouts and expire unpaid bank transfers on
   * the recovery interval (one node at a time), where there is a provider or bank details.
   */
  async onModuleInit() {
    if (this.config.payments.provider === 'none' && !this.catalogue.bankDetails().available) return;
    this.jobs.process(JobName.PaymentReconcile, async () => {
      await this.reconciliation.reconcile().catch((e) => this.logger.error(`payment reconciliation failed: ${e}`));
      await this.bankTransfers.expireStale().catch((e) => this.logger.error(`bank transfer expiry failed: ${e}`));
    });
    await this.jobs.repeat(JobName.PaymentReconcile, this.config.recovery.intervalMs);
  }
}
