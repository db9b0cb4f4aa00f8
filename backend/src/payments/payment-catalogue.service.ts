import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { CreditPackage, discountActive, discountEndsAt, findPackage, PACKAGES, priceFor, SKUS } from './packages';

/** What can be bought and how: the packages at the user's price, the provider, the bank details. */
@Injectable()
export class PaymentCatalogueService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get providerName() {
    return this.config.payments.provider;
  }

  packagesFor(user: User) {
    const days = this.config.payments.discountDays;
    return {
      packages: PACKAGES.map((p) => ({
        sku: p.sku,
        credits: p.credits,
        price: Number(p.price),
        listPrice: Number(p.listPrice),
        currentPrice: Number(priceFor(p, user.createdAt, days)),
      })),
      currency: this.config.payments.currency,
      discountActive: discountActive(user.createdAt, days),
      discountEndsAt: discountEndsAt(user.createdAt, days),
      provider: this.providerName,
      bankTransfer: this.bankDetails().available,
    };
  }

  bankDetails() {
    const b = this.config.payments.bank;
    return { bankName: b.name, accountNumber: b.accountNumber, iban: b.iban, available: !!(b.name && (b.accountNumber || b.iban)) };
  }

  /** The package by SKU; an unknown one is a 400 naming the valid ones. */
  packageOrFail(sku: string): CreditPackage {
    const pkg = findPackage(sku);
    if (!pkg) {
      throw new BadRequestException({ message: `Unknown package "${sku}". Choose one of ${SKUS.join(', ')}.`, code: 'unknown_package' });
    }
    return pkg;
  }

  /** The price this user pays for the package today (the first-month discount applies or not). */
  priceFor(pkg: CreditPackage, user: User): string {
    return priceFor(pkg, user.createdAt, this.config.payments.discountDays);
  }

  get currency() {
    return this.config.payments.currency;
  }
}
