import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SessionService } from './session.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes for the session cache: the answer to an HTTP request that may have written
 * leaves only after this node has applied the change notifications its writes caused, so the
 * next request (from the same browser or anyone else) never sees the user row as it was
 * before. Reads pass straight through.
 *
 * Middleware holding back `res.end` rather than a global interceptor: it costs a read nothing,
 * where an interceptor would put every request of every route through the interceptor chain.
 * Refusals wait too, since a failed request may have written before it failed.
 */
export function sessionWriteBarrier(sessions: SessionService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (READS.has(req.method)) return next();
    const end = res.end;
    res.end = function (this: Response, ...args: unknown[]) {
      const finish = () => (end as (...a: unknown[]) => Response).apply(this, args);
      sessions.settle().then(finish, finish);
      return this;
    } as Response['end'];
    next();
  };
}
