import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { User } from '../users/entities/user.entity';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CaptchaService } from './captcha.service';
import { AuthToken } from './entities/auth-token.entity';
import { JwtAuthGuard, RolesGuard } from './guards';
import { JwtStrategy } from './jwt.strategy';

@Module({
  imports: [
    TypeOrmModule.forFeature([User, AuthToken]),
    PassportModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ secret: config.auth.jwtSecret }),
    }),
    // Sign-in endpoints are limited per client IP and per account (the e-mail or username
    // in the body), so neither spraying one account nor one IP trying many works.
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
          storage: config.redis.url ? new ThrottlerStorageRedisService(config.redis.url) : undefined,
          throttlers: [
            { name: 'ip', ttl: windowMs, limit: perIp },
            {
              name: 'account',
              ttl: windowMs,
              limit: perAccount,
              skipIf: (ctx) => typeof ctx.switchToHttp().getRequest().body?.email !== 'string',
              getTracker: (req) => String(req.body.email).trim().toLowerCase(),
            },
          ],
        };
      },
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    CaptchaService,
    JwtStrategy,
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
