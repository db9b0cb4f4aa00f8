import { BadRequestException, CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_IGNORED, IDEMPOTENT } from './idempotency.decorators';
import { IDEMPOTENCY_HEADER } from './idempotency.interceptor';

/** Methods a repeat of which may act twice: there a key the route would not honour is refused. */
const UNSAFE_METHODS = new Set(['POST', 'PATCH']);

export const NOT_SUPPORTED_MESSAGE =
  'This route does not support Idempotency-Key (docs/api.md lists the routes that do). Send the request without it.';

/**
 * Global: an Idempotency-Key on a POST or PATCH route that does not honour it answers 400
 * `idempotency_not_supported`, so a client never believes a retry is protected when it is
 * not. GET, PUT and DELETE are repeatable by definition; the header is ignored there.
 *
 * A guard rather than an interceptor: it only lets a request through or refuses it, and a
 * global interceptor would put every request of every route through the interceptor chain.
 * Registered after the session guards (IdempotencyModule comes after AuthModule and
 * ApiKeysModule), so an unauthenticated request is still 401 first.
 */
@Injectable()
export class IdempotencySupportGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (req.headers[IDEMPOTENCY_HEADER] === undefined || !UNSAFE_METHODS.has(req.method)) return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IDEMPOTENT, targets) || this.reflector.getAllAndOverride<boolean>(IDEMPOTENCY_IGNORED, targets)) return true;
    throw new BadRequestException({ message: NOT_SUPPORTED_MESSAGE, code: 'idempotency_not_supported' });
  }
}
