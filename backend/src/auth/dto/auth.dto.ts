import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { IsAccountEmail } from '../../common/email';
import { IsPhone } from '../../common/phone';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
/** An empty optional field means "not given". */
const emptyToNull = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? null : typeof value === 'string' ? value.trim() : value;

export const USERNAME_PATTERN = /^[a-zA-Z0-9._-]+$/;

export class NameFields {
  @ApiProperty({ minLength: 3, maxLength: 100 })
  @Transform(trim)
  @IsString({ message: 'First name is required' })
  @IsNotEmpty({ message: 'First name is required' })
  @MinLength(3, { message: 'First name must be at least 3 characters' })
  @MaxLength(100, { message: 'First name must be at most 100 characters' })
  firstName: string;

  @ApiProperty({ minLength: 3, maxLength: 100 })
  @Transform(trim)
  @IsString({ message: 'Last name is required' })
  @IsNotEmpty({ message: 'Last name is required' })
  @MinLength(3, { message: 'Last name must be at least 3 characters' })
  @MaxLength(100, { message: 'Last name must be at most 100 characters' })
  lastName: string;
}

export class RegisterDto extends NameFields {
  @ApiProperty({ minLength: 3, maxLength: 50, pattern: USERNAME_PATTERN.source })
  @Transform(trim)
  @IsString({ message: 'Username is required' })
  @IsNotEmpty({ message: 'Username is required' })
  @MinLength(3, { message: 'Username must be at least 3 characters' })
  @MaxLength(50, { message: 'Username must be at most 50 characters' })
  @Matches(USERNAME_PATTERN, { message: 'Username may contain only letters, digits, dots, dashes and underscores' })
  username: string;

  @ApiPropertyOptional({ type: String, minLength: 3, maxLength: 100, nullable: true })
  @Transform(emptyToNull)
  @IsOptional()
  @IsString()
  @MinLength(3, { message: 'Company must be at least 3 characters' })
  @MaxLength(100, { message: 'Company must be at most 100 characters' })
  company?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Any valid international number; stored as E.164', nullable: true })
  @Transform(emptyToNull)
  @IsOptional()
  @IsPhone()
  phone?: string | null;

  @ApiProperty({ format: 'email' })
  @Transform(lower)
  @IsNotEmpty({ message: 'Email is required' })
  @IsAccountEmail()
  @MaxLength(254, { message: 'Invalid email address' })
  email: string;

  @ApiProperty({ minLength: 6, maxLength: 128 })
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MinLength(6, { message: 'Password must be at least 6 characters' })
  @MaxLength(128, { message: 'Password must be at most 128 characters' })
  password: string;

  @ApiPropertyOptional({ description: 'Captcha response token, when not verified through /verify-captcha first' })
  @IsOptional()
  @IsString()
  captchaToken?: string;
}

export class LoginDto {
  @ApiProperty({ description: 'E-mail address or username' })
  @Transform(lower)
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @MaxLength(254)
  email: string;

  @ApiProperty()
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(128)
  password: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  captchaToken?: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ format: 'email' })
  @Transform(lower)
  @IsNotEmpty({ message: 'Email is required' })
  @IsAccountEmail()
  email: string;
}

export class ResetPasswordDto extends ForgotPasswordDto {
  @ApiProperty()
  @Transform(trim)
  @IsString({ message: 'Reset token is required' })
  @IsNotEmpty({ message: 'Reset token is required' })
  @MaxLength(100)
  resetToken: string;

  @ApiProperty({ minLength: 6, maxLength: 128 })
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MinLength(6, { message: 'Password must be at least 6 characters' })
  @MaxLength(128, { message: 'Password must be at most 128 characters' })
  password: string;

  @ApiPropertyOptional()
  @IsOptional()
  @ValidateIf((o) => o.confirmPassword !== undefined)
  @IsString()
  confirmPassword?: string;
}

export class VerifyCaptchaDto {
  @ApiProperty()
  @IsString({ message: 'Please verify the captcha' })
  @IsNotEmpty({ message: 'Please verify the captcha' })
  @MaxLength(4096)
  token: string;
}

export class UpdateProfileDto extends NameFields {
  @ApiProperty({ format: 'email' })
  @Transform(lower)
  @IsNotEmpty({ message: 'Email is required' })
  @IsAccountEmail()
  @MaxLength(254, { message: 'Invalid email address' })
  email: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Transform(emptyToNull)
  @IsOptional()
  @IsString()
  @MinLength(3, { message: 'Company must be at least 3 characters' })
  @MaxLength(100, { message: 'Company must be at most 100 characters' })
  company?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Transform(emptyToNull)
  @IsOptional()
  @IsPhone()
  phone?: string | null;

  @ApiPropertyOptional({ description: 'Required when the e-mail changes: a stolen session alone must not take over the account' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  currentPassword?: string;
}

export class VerifyResultDto {
  @ApiProperty() message: string;
  @ApiProperty({ description: 'The link had been used before and the address is verified' }) alreadyVerified: boolean;
}

export class CaptchaConfigDto {
  @ApiProperty({ enum: ['none', 'recaptcha', 'turnstile'] }) provider: 'none' | 'recaptcha' | 'turnstile';
  @ApiProperty({ type: String, nullable: true }) siteKey: string | null;
}

export class AuthConfigDto {
  @ApiProperty({ type: CaptchaConfigDto }) captcha: CaptchaConfigDto;
}

export class AuthConfigResponse {
  @ApiProperty({ type: AuthConfigDto }) data: AuthConfigDto;
}

export class CaptchaResultDto {
  @ApiProperty() success: boolean;
}

export class CaptchaResponse {
  @ApiProperty({ type: CaptchaResultDto }) data: CaptchaResultDto;
}
