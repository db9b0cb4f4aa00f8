import { Body, Controller, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../auth/auth.decorators';
import { Role, User } from '../users/entities/user.entity';
import {
  BankDetailsResponse,
  BuyCreditsDto,
  BuyCreditsResponse,
  CreditPackagesResponse,
  ManualPaymentDto,
  PackagesQueryDto,
  PaymentListQueryDto,
  PaymentListResponse,
  PaymentResponse,
  toPaymentDto,
} from './dto/payment.dto';
import { PaymentStatus } from './entities/payment.entity';
import { PaymentsService } from './payments.service';
import { Idempotent } from '../idempotency/idempotency.decorators';

const paymentId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Payment not found') });

@ApiTags('payments')
@ApiCookieAuth()
@Controller()
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Post('buyCredits')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({ summary: "Start buying a package: a Pending payment and the provider's checkout link" })
  @ApiOkResponse({ type: BuyCreditsResponse })
  async buyCredits(@CurrentUser() user: User, @Body() dto: BuyCreditsDto) {
    return { data: await this.payments.buy(user, dto.sku) };
  }

  @Get('payment/packages')
  @ApiOperation({
    summary: 'The credit packages at the prices this user pays now, and whether the first-month discount applies; admins may ask for another user (userId)',
  })
  @ApiOkResponse({ type: CreditPackagesResponse })
  async packages(@CurrentUser() user: User, @Query() q: PackagesQueryDto) {
    const forUser = q.userId && q.userId !== user._id ? await this.payments.userForAdmin(user, q.userId) : user;
    return { data: this.payments.packagesFor(forUser) };
  }

  @Get('payment/bank-details')
  @ApiOperation({ summary: 'Bank-transfer details from configuration' })
  @ApiOkResponse({ type: BankDetailsResponse })
  bankDetails() {
    return { data: this.payments.bankDetails() };
  }

  @Post('payment/manual')
  @Roles(Role.Admin)
  @ApiOperation({ summary: 'Admin: add a package of credit to a user (a Completed payment of type Manual)' })
  @ApiOkResponse({ type: PaymentResponse })
  async addManual(@CurrentUser() admin: User, @Body() dto: ManualPaymentDto) {
    return { data: toPaymentDto(await this.payments.addManual(admin, dto.userId, dto.sku)), message: 'Credit added successfully' };
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

  @Get('completedTransfers')
  @Roles(Role.Admin)
  @ApiOperation({ summary: "Admin: every user's completed payments (refunded ones too, with any unrecovered credits)" })
  @ApiOkResponse({ type: PaymentListResponse })
  completedTransfers(@Query() q: PaymentListQueryDto) {
    return this.payments.list(null, q, [PaymentStatus.Completed, PaymentStatus.Refunded]);
  }
}
