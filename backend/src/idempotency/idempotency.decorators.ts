import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ApiError } from '../common/api-errors';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** Set by @Idempotent(): the route honours an Idempotency-Key. */
export const IDEMPOTENT = 'idempotent';
/** Set by @IgnoresIdempotencyKey(): a receiver of someone else's requests, where the header means nothing to us. */
export const IDEMPOTENCY_IGNORED = 'idempotencyIgnored';

/**
 * Marks a POST route that creates or spends: an `Idempotency-Key` header makes a retry answer
 * the first response instead of acting twice. On a route with a file interceptor, put this
 * ABOVE @UseInterceptors(AnyFilesUpload()) so the files are parsed (and fingerprinted) first.
 * Other POST and PATCH routes refuse the header (IdempotencySupportGuard).
 */
export const Idempotent = () =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any unique string (a UUID). The same key with the same request within 24 h answers the first response again (header Idempotent-Replayed: true) instead of acting twice.',
      example: '5f0c2c1e-8d7a-4b8e-9d61-2b7f4f1c9a10',
    }),
    ApiResponse({ status: 422, description: 'The Idempotency-Key was used for a different request (code idempotency_key_reused)' }),
    ApiError(409, 'A request with this Idempotency-Key is still being processed: retry shortly', 'A request with this Idempotency-Key is still being processed. Try again shortly.', 'idempotency_in_progress'),
  );

/**
 * On a route another system calls (a shop's or PayPal's callback): an Idempotency-Key it may
 * send is neither honoured nor refused.
 */
export const IgnoresIdempotencyKey = () => SetMetadata(IDEMPOTENCY_IGNORED, true);
