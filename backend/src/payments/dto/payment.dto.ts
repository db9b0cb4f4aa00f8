import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { ListQueryDto } from '../../common/pagination';
import { PaginatedResponse } from '../../common/responses';
import { Payment, PaymentStatus, PaymentType } from '../entities/payment.entity';

/** Any string reaches the service, which answers an unknown sku with a clear 400. */
export class BuyCreditsDto {
  @ApiProperty({ enum: ['credits500', 'credits1000', 'credits5000'] })
  @IsString({ message: 'sku is required' })
  sku: string;
}

export class PaymentListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['purchaseDate', 'price', 'credits', 'status'] })
  @IsOptional()
  @IsIn(['purchaseDate', 'price', 'credits', 'status'], { message: 'sortBy must be purchaseDate, price, credits or status' })
  declare sortBy?: string;

  @ApiPropertyOptional({ enum: PaymentStatus })
  @IsOptional()
  @IsIn(Object.values(PaymentStatus), { message: 'status must be Pending, Completed, Cancelled or Refunded' })
  status?: PaymentStatus;
}

export class BuyCreditsData {
  @ApiProperty({ description: 'Where the browser goes to approve the payment' }) link: string;
  @ApiProperty({ enum: ['Pending'] }) status: 'Pending';
  @ApiProperty() paymentId: string;
}

export class BuyCreditsResponse {
  @ApiProperty({ type: BuyCreditsData }) data: BuyCreditsData;
}

export class PaymentUserDto {
  @ApiProperty() _id: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty() username: string;
}

export class PaymentDto {
  @ApiProperty() _id: string;
  @ApiProperty({ type: PaymentUserDto }) userId: PaymentUserDto;
  @ApiProperty({ enum: PaymentType }) type: PaymentType;
  @ApiProperty() paymentMethod: string;
  @ApiProperty({ nullable: true, type: String }) paymentSystemReferenceId: string | null;
  @ApiProperty() purchaseDate: Date;
  @ApiProperty({ description: 'In the payment currency (USD by default)' }) price: number;
  @ApiProperty() currency: string;
  @ApiProperty() packageSku: string;
  @ApiProperty() credits: number;
  @ApiProperty({ enum: PaymentStatus }) status: PaymentStatus;
  @ApiProperty({ description: 'Credits a refund could not take back (already spent)' }) debtCredits: number;
  @ApiProperty({ nullable: true, type: Date }) completedAt: Date | null;
  @ApiProperty({ nullable: true, type: Date }) refundedAt: Date | null;
}

export function toPaymentDto(p: Payment): PaymentDto {
  return {
    _id: p._id,
    userId: {
      _id: p.userId,
      firstName: p.user?.firstName ?? '',
      lastName: p.user?.lastName ?? '',
      username: p.user?.username ?? '',
    },
    type: p.type,
    paymentMethod: p.paymentMethod,
    paymentSystemReferenceId: p.paymentSystemReferenceId,
    purchaseDate: p.purchaseDate,
    price: Number(p.price),
    currency: p.currency,
    packageSku: p.packageSku,
    credits: p.credits,
    status: p.status,
    debtCredits: p.debtCredits,
    completedAt: p.completedAt,
    refundedAt: p.refundedAt,
  };
}

export class PaymentResponse {
  @ApiProperty({ type: PaymentDto }) data: PaymentDto;
  @ApiPropertyOptional() message?: string;
}

export class PaymentListResponse extends PaginatedResponse(PaymentDto) {}

export class CreditPackageDto {
  @ApiProperty({ enum: ['credits500', 'credits1000', 'credits5000'] }) sku: string;
  @ApiProperty() credits: number;
  @ApiProperty({ description: 'Discounted (first-month) price' }) price: number;
  @ApiProperty() listPrice: number;
  @ApiProperty({ description: 'What this user pays now' }) currentPrice: number;
}

export class CreditPackagesData {
  @ApiProperty({ type: [CreditPackageDto] }) packages: CreditPackageDto[];
  @ApiProperty() currency: string;
  @ApiProperty({ description: 'The first-month discount applies to this user now' }) discountActive: boolean;
  @ApiProperty() discountEndsAt: Date;
  @ApiProperty({ enum: ['paypal', 'test', 'none'] }) provider: string;
  @ApiProperty({ description: 'Bank details are configured: the packages can also be paid by bank transfer' }) bankTransfer: boolean;
}

export class CreditPackagesResponse {
  @ApiProperty({ type: CreditPackagesData }) data: CreditPackagesData;
}

export class BankDetailsData {
  @ApiProperty() bankName: string;
  @ApiProperty() accountNumber: string;
  @ApiProperty() iban: string;
  @ApiProperty({ description: 'False when no bank details are configured' }) available: boolean;
}

export class BankDetailsResponse {
  @ApiProperty({ type: BankDetailsData }) data: BankDetailsData;
}
