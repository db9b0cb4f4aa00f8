import { BadRequestException, Body, Controller, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { Role, User } from '../users/entities/user.entity';
import {
  BankDetailsResponse,
  BuyCreditsDto,
  BuyCreditsResponse,
  CreditPackagesResponse,
  PaymentListQueryDto,
  PaymentListResponse,
  PaymentResponse,
  toPaymentDto,
} from './dto/payment.dto';
import { PaymentMethod, PaymentStatus } from './entities/payment.entity';
import { BankTransfersService } from './bank-transfers.service';
import { CheckoutService } from './checkout.service';
import { PaymentCatalogueService } from './payment-catalogue.service';
import { PaymentsService } from './payments.service';
import { Idempotent } from '../idempotency/idempotency.decorators';
import { ApiError } from '../common/api-errors';

const paymentId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Payment not found') });

@ApiTags('payments')
@ApiCookieAuth()
@Controller()
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly catalogue: PaymentCatalogueService,
    private readonly checkout: CheckoutService,
    private readonly bankTransfers: BankTransfersService,
  ) {}

  @Post('buyCredits')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({ summary: "Start buying a package: a Pending payment and the provider's checkout link" })
  @ApiOkResponse({ type: BuyCreditsResponse })
  @ApiError(502, 'The payment provider did not answer; nothing was charged', 'The payment provider could not be reached. Please try again.', 'provider_unavailable')
  async buyCredits(@CurrentUser() user: User, @Body() dto: BuyCreditsDto) {
    return { data: await this.checkout.buy(user, dto.sku) };
  }

  @Get('payment/packages')
  @ApiOperation({
    summary: 'The credit packages at the prices this user pays now, whether the first-month discount applies, and whether bank transfer is offered',
  })
  @ApiOkResponse({ type: CreditPackagesResponse })
  packages(@CurrentUser() user: User) {
    return { data: this.catalogue.packagesFor(user) };
  }

  @Get('payment/bank-details')
  @ApiOperation({ summary: 'Bank-transfer details from configuration' })
  @ApiOkResponse({ type: BankDetailsResponse })
  bankDetails() {
    return { data: this.catalogue.bankDetails() };
  }

  @Post('payment/bank-transfer')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pay a package by bank transfer: a Pending payment with the reference to write on the transfer (the open one for the same package if there is one)',
  })
  @ApiOkResponse({ type: PaymentResponse })
  async startBankTransfer(@CurrentUser() user: User, @Body() dto: BuyCreditsDto) {
    return { data: toPaymentDto(await this.bankTransfers.start(user, dto.sku)) };
  }

  @Post('payment/:id/received')
  @Idempotent()
  @Roles(Role.Admin)
  @HttpCode(200)
  @ApiOperation({ summary: "Admin: a bank transfer's money arrived; the payment completes and its credits are added once" })
  @ApiOkResponse({ type: PaymentResponse })
  async markTransferReceived(@CurrentUser() admin: User, @Param('id', paymentId) id: string) {
    return { data: toPaymentDto(await this.bankTransfers.markReceived(admin, id)), message: 'Transfer marked as received: credits added' };
  }

  @Get('payment')
  @ApiOperation({ summary: 'Own payment history (sort=desc&sortBy=purchaseDate by default)' })
  @ApiOkResponse({ type: PaymentListResponse })
  listPayments(@CurrentUser() user: User, @Query() q: PaymentListQueryDto) {
    return this.payments.list(user._id, q);
  }

  @Get('payment/:id')
  @ApiOkResponse({ type: PaymentResponse })
  async getPayment(@CurrentUser() user: User, @Param('id', paymentId) id: string) {
    return { data: toPaymentDto(await this.payments.getOwn(user._id, id)) };
  }

  @Get('bankTransfers')
  @Roles(Role.Admin)
  @ApiOperation({
    summary: "Admin: every user's bank transfers still waiting for the money",
    description: 'status=Cancelled lists the ones that expired unpaid (or were cancelled) instead: money that arrives late can still be marked received. Completed ones are in completedTransfers.',
  })
  @ApiOkResponse({ type: PaymentListResponse })
  pendingBankTransfers(@Query() q: PaymentListQueryDto) {
    const status = q.status ?? PaymentStatus.Pending;
    if (status !== PaymentStatus.Pending && status !== PaymentStatus.Cancelled) {
      throw new BadRequestException({ message: 'status must be Pending or Cancelled here; completed bank transfers are in completedTransfers', code: 'validation_failed' });
    }
    return this.payments.list(null, q, [status], PaymentMethod.Bank);
  }

  @Get('completedTransfers')
  @Roles(Role.Admin)
  @ApiOperation({ summary: "Admin: every user's completed payments (refunded ones too, with any unrecovered credits)" })
  @ApiOkResponse({ type: PaymentListResponse })
  completedTransfers(@Query() q: PaymentListQueryDto) {
    return this.payments.list(null, q, [PaymentStatus.Completed, PaymentStatus.Refunded]);
  }
}
