import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { CheckoutController } from './checkout.controller';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { PAYMENT_PROVIDER, PaymentProvider } from './providers/payment-provider';
import { PayPalProvider } from './providers/paypal.provider';
import { TestCheckoutProvider } from './providers/test-checkout.provider';

/** Buying credits: the configured checkout provider (PayPal, the test checkout, or none). */
@Module({
  controllers: [PaymentsController, CheckoutController],
  providers: [
    PaymentsService,
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
export class PaymentsModule {}
