import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Request } from 'express';
import { concatMap, Observable } from 'rxjs';
import { SessionService } from './session.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes for the session cache: an HTTP request that may have written answers only
 * after this node has applied the change notifications its writes caused, so the next
 * request (from the same browser or anyone else) never sees the user row as it was before.
 * Reads pass straight through.
 */
@Injectable()
export class SessionWriteBarrier implements NestInterceptor {
  constructor(private readonly sessions: SessionService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || READS.has(context.switchToHttp().getRequest<Request>().method)) return next.handle();
    return next.handle().pipe(
      concatMap(async (value) => {
        await this.sessions.settle();
        return value;
      }),
    );
  }
}
