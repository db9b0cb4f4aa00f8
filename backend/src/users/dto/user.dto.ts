import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, Max, MaxLength, Min } from 'class-validator';
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

export class UpdateCreditDto {
  @ApiProperty({ description: 'The new available balance', minimum: 1 })
  @IsNotEmpty({ message: 'Available credits is required' })
  @IsInt({ message: 'Available credits must be a positive integer' })
  @Min(1, { message: 'Available credits must be a positive integer' })
  @Max(100_000_000, { message: 'Available credits is too large' })
  availableCredits: number;
}

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
