import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IdempotencySupportGuard } from './idempotency-support.guard';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';

/**
 * Global so any feature's controller can use @Idempotent() without importing this module; the
 * other POST and PATCH routes refuse the header.
 */
@Global()
@Module({
  providers: [IdempotencyService, IdempotencyInterceptor, { provide: APP_GUARD, useClass: IdempotencySupportGuard }],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
