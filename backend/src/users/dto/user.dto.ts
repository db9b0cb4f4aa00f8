import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CreditReason } from '../../credits/entities/credit-transaction.entity';
import { NameFields, RegisterDto } from '../../auth/dto/auth.dto';
import { IsAccountEmail } from '../../common/email';
import { IsPhone } from '../../common/phone';
import { ListQueryDto } from '../../common/pagination';
import { PaginatedResponse } from '../../common/responses';
import { Role, User, UserStatus } from '../entities/user.entity';

export class CreditDto {
  @ApiProperty() availableCredits: number;
  @ApiProperty() usedCredits: number;
}

export class UserDto {
  @ApiProperty() _id: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty() username: string;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String }) company: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'E.164' }) phone: string | null;
  @ApiProperty({ enum: Role }) role: Role;
  @ApiProperty({ enum: UserStatus }) status: UserStatus;
  @ApiProperty() emailVerified: boolean;
  @ApiProperty({ type: CreditDto }) credit: CreditDto;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export function toUserDto(u: User): UserDto {
  return {
    _id: u._id,
    firstName: u.firstName,
    lastName: u.lastName,
    username: u.username,
    email: u.email,
    company: u.company,
    phone: u.phone,
    role: u.role,
    status: u.status,
    emailVerified: !!u.emailVerifiedAt,
    credit: { availableCredits: u.availableCredits, usedCredits: u.usedCredits },
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

export class UserResponse {
  @ApiProperty({ type: UserDto }) data: UserDto;
  @ApiPropertyOptional() message?: string;
}

export class UserListResponse extends PaginatedResponse(UserDto) {}

/** Admin-created accounts are always plain users; the phone is required on this form. */
export class CreateUserDto extends PickType(RegisterDto, ['firstName', 'lastName', 'username', 'email', 'password', 'company'] as const) {
  @ApiProperty()
  @IsNotEmpty({ message: 'Phone number is not valid' })
  @IsPhone()
  phone: string;
}

export class UpdateUserDto extends PartialType(NameFields) {
  @ApiPropertyOptional({ format: 'email' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsOptional()
  @IsAccountEmail()
  @MaxLength(254, { message: 'Invalid email address' })
  email?: string;

  @ApiPropertyOptional({ enum: Role })
  @IsOptional()
  @IsIn(Object.values(Role), { message: 'Role must be admin or user' })
  role?: Role;
}

export class UpdateStatusDto {
  @ApiProperty({ enum: UserStatus })
  @IsIn(Object.values(UserStatus), { message: 'Status must be active or inactive' })
  status: UserStatus;
}

/** Why an admin changes a balance: required, kept in the ledger and shown in the user's credit history. */
class CreditReasonField {
  @ApiProperty({ description: 'Why (kept in the credit history)', minLength: 3, maxLength: 300, example: 'Goodwill for the failed print of 3 May' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'A reason is required' })
  @MinLength(3, { message: 'A reason is required (at least 3 characters)' })
  @MaxLength(300, { message: 'The reason is too long (at most 300 characters)' })
  reason: string;
}

export class UpdateCreditDto extends CreditReasonField {
  @ApiProperty({ description: 'The new available balance', minimum: 1 })
  @IsNotEmpty({ message: 'Available credits is required' })
  @IsInt({ message: 'Available credits must be a positive integer' })
  @Min(1, { message: 'Available credits must be a positive integer' })
  @Max(100_000_000, { message: 'Available credits is too large' })
  availableCredits: number;
}

export class GrantCreditDto extends CreditReasonField {
  @ApiProperty({ description: 'Credits to add to the available balance', minimum: 1, maximum: 1_000_000 })
  @IsNotEmpty({ message: 'Credits is required' })
  @IsInt({ message: 'Credits must be a positive whole number' })
  @Min(1, { message: 'Credits must be a positive whole number' })
  @Max(1_000_000, { message: 'At most 1,000,000 credits at once' })
  credits: number;
}

export class CreditActorDto {
  @ApiProperty() _id: string;
  @ApiProperty() username: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
}

export class CreditHistoryEntryDto {
  @ApiProperty() _id: string;
  @ApiProperty({
    enum: Object.values(CreditReason),
    description: 'purchase (a payment), admin_grant (credits given, no money), admin_adjust (balance set by an admin), print_charge, refund (of a print), payment_refund',
  })
  reason: CreditReason;
  @ApiProperty({ description: 'Change of the available balance' }) availableDelta: number;
  @ApiProperty({ description: 'Change of the used total' }) usedDelta: number;
  @ApiProperty({ description: 'Available balance right after this change' }) availableAfter: number;
  @ApiProperty({ nullable: true, type: String, description: 'What it is about: print:<id> or payment:<id>' }) reference: string | null;
  @ApiProperty({ description: "The admin's reason, or the system's note" }) note: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ type: CreditActorDto, nullable: true, description: 'Who made the change; null for the system' }) actor: CreditActorDto | null;
}

export class CreditHistoryResponse extends PaginatedResponse(CreditHistoryEntryDto) {}

export class CreditHistoryQueryDto extends PickType(ListQueryDto, ['page', 'limit'] as const) {}

export const USER_SORT_KEYS = ['firstName', 'lastName', 'username', 'email', 'role', 'status', 'createdAt', 'availableCredits'] as const;

export class UserListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: USER_SORT_KEYS })
  @IsOptional()
  @IsIn(USER_SORT_KEYS, { message: `sortBy must be one of ${USER_SORT_KEYS.join(', ')}` })
  declare sortBy?: (typeof USER_SORT_KEYS)[number];

  @ApiPropertyOptional({ enum: Role })
  @IsOptional()
  @IsIn(Object.values(Role))
  role?: Role;

  @ApiPropertyOptional({ enum: UserStatus })
  @IsOptional()
  @IsIn(Object.values(UserStatus))
  status?: UserStatus;
}
