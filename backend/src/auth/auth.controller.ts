import { BadRequestException, Body, Controller, Get, HttpCode, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle, ThrottlerGuard } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentUser, Public } from './auth.decorators';
import { MessageResponse } from '../common/responses';
import { toUserDto, UserResponse } from '../users/dto/user.dto';
import { User } from '../users/entities/user.entity';
import { AuthService } from './auth.service';
import { CaptchaGuard, captchaFailed, CaptchaService, RequireCaptcha } from './captcha.service';
import { SessionService } from '../session/session.service';
import { ApiError } from '../common/api-errors';
import {
  AuthConfigResponse,
  CaptchaResponse,
  ForgotPasswordDto,
  LoginDto,
  RegisterDto,
  ResetPasswordDto,
  UpdateProfileDto,
  VerifyCaptchaDto,
  VerifyResultDto,
} from './dto/auth.dto';

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly captcha: CaptchaService,
    private readonly sessions: SessionService,
  ) {}

  @Public()
  @Get('auth/config')
  @ApiOperation({ summary: 'What the sign-in pages need to know: the captcha provider and site key' })
  @ApiOkResponse({ type: AuthConfigResponse })
  config() {
    return { data: { captcha: this.captcha.publicConfig() } };
  }

  @Public()
  @UseGuards(ThrottlerGuard, CaptchaGuard)
  @RequireCaptcha('Please verify captcha')
  @Post('register')
  @ApiOperation({ summary: 'Signs up; answers the same whether or not the e-mail already has an account (the mail tells the owner)' })
  @ApiOkResponse({ type: MessageResponse })
  async register(@Body() dto: RegisterDto) {
    await this.auth.register(dto);
    return { message: 'User registered successfully' };
  }

  @Public()
  @UseGuards(ThrottlerGuard)
  @Get('verify')
  @ApiOkResponse({ type: VerifyResultDto })
  @ApiError(409, 'An e-mail change link whose address another account took meanwhile', 'Email is already registered', 'email_taken')
  async verify(@Query('token') token: string) {
    if (typeof token !== 'string' || !token) throw new BadRequestException('Email verification failed');
    const { alreadyVerified, emailChanged } = await this.auth.verifyEmail(token);
    const message = alreadyVerified ? 'Email already verified' : emailChanged ? 'Email address changed' : 'Email verified successfully';
    return { message, alreadyVerified };
  }

  @Public()
  // Per IP only here: wrong passwords are counted per (account, IP) by AuthService.login.
  @SkipThrottle({ account: true })
  @UseGuards(ThrottlerGuard, CaptchaGuard)
  @RequireCaptcha('Please verify the captcha')
  @Post('login')
  @HttpCode(200)
  @ApiOkResponse({ type: UserResponse })
  async login(@Body() dto: LoginDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const user = await this.auth.login(dto.email, dto.password, req.ip);
    await this.sessions.issueSession(req, reply, user);
    return { data: toUserDto(user) };
  }

  @Public()
  @Post('logout')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.endSession(req, reply);
    return { message: 'Logged out' };
  }

  @Public()
  @UseGuards(ThrottlerGuard)
  @Post('forgot-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async forgotPassword(@Body() dto: ForgotPasswordDto) {
    await this.auth.forgotPassword(dto.email);
    return { message: 'Password reset key sended to given email' };
  }

  @Public()
  @UseGuards(ThrottlerGuard)
  @Post('reset-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  async resetPassword(@Body() dto: ResetPasswordDto) {
    await this.auth.resetPassword(dto);
    return { message: 'Password reset successfully' };
  }

  @Public()
  @UseGuards(ThrottlerGuard)
  @Post('verify-captcha')
  @HttpCode(200)
  @ApiOperation({ summary: 'Checks a captcha token with the provider; on success the next login or register may omit it' })
  @ApiOkResponse({ type: CaptchaResponse })
  async verifyCaptcha(@Body() dto: VerifyCaptchaDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const ok = await this.captcha.verify(dto.token, req.ip);
    if (!ok) throw captchaFailed();
    if (this.captcha.enabled) await this.captcha.issueCaptchaPass(req, reply);
    return { data: { success: true } };
  }

  @Get('profile')
  @ApiCookieAuth()
  @ApiOkResponse({ type: UserResponse })
  profile(@CurrentUser() user: User) {
    return { data: toUserDto(user) };
  }

  @Put('profile')
  @ApiCookieAuth()
  @ApiOperation({
    summary:
      'Saves the profile. A new e-mail needs currentPassword and changes only when the link mailed to it is opened; the answer is the same whether or not the address has an account',
  })
  @ApiOkResponse({ type: UserResponse })
  async updateProfile(@CurrentUser() user: User, @Body() dto: UpdateProfileDto, @Req() req: FastifyRequest) {
    const { user: updated, pendingEmail } = await this.auth.updateProfile(user, dto, req.ip);
    const message = pendingEmail
      ? `Profile Updated Successfully. We sent a link to ${pendingEmail}: your e-mail address changes when you open it.`
      : 'Profile Updated Successfully';
    return { data: toUserDto(updated), message };
  }
}
