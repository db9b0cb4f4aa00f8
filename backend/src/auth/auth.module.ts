import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CaptchaGuard, CaptchaService } from './captcha.service';
import { AuthToken } from './entities/auth-token.entity';
import { SessionModule } from '../session/session.module';
import { UsersModule } from '../users/users.module';
import { LoginFailuresService } from './login-failures.service';
import { JwtAuthGuard, RolesGuard } from './guards';
import { JwtStrategy } from './jwt.strategy';
import { redisClient } from '../common/redis';

@Module({
  imports: [
    TypeOrmModule.forFeature([User, AuthToken]),
    PassportModule,
    SessionModule,
    UsersModule,
    // Sign-in endpoints are limited per client IP and per account (the e-mail or username
    // in the body), so neither spraying one account nor one IP trying many works. The
    // client IP is req.ip: forwarded headers count only from TRUST_PROXY peers.
    // Counters live in Redis when it is configured, so every API node shares them.
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const { windowMs, perIp, perAccount } = config.auth.rateLimit;
        return {
          errorMessage: 'Too many attempts. Please try again later.',
          // Namespaced like the queues, so deployments sharing one Redis keep separate counters.
          generateKey: (ctx, tracker, name) =>
            `${config.redis.prefix}:throttle:${ctx.getHandler().name}:${name}:${createHash('sha256').update(tracker).digest('hex')}`,
          storage: config.redis.url ? new ThrottlerStorageRedisService(redisClient(config.redis.url, 'rate limits')) : undefined,
          throttlers: [
            { name: 'ip', ttl: windowMs, limit: perIp },
            {
              name: 'account',
              ttl: windowMs,
              limit: perAccount,
              skipIf: (ctx) => typeof ctx.switchToHttp().getRequest().body?.email !== 'string',
              // Per (account, IP), forgot-password included: a budget per account alone let a
              // stranger spend the owner's (10 requests every window kept them out for good).
              // A mailbox flood needs many addresses, each limited by the per-IP throttler.
              // Login has its own failure counter.
              getTracker: (req) => `${String(req.body.email).trim().toLowerCase()}\n${req.ip}`,
            },
          ],
        };
      },
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    LoginFailuresService,
    CaptchaService,
    CaptchaGuard,
    JwtStrategy,
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
