import { ForbiddenException } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery defence for cookie auth. A mutation must come from one of our
 * origins (Origin, or Referer when a browser omits Origin) and must not be a "simple"
 * cross-site form post: it carries JSON, multipart from our own pages, or the
 * X-Requested-With header our client always sends.
 */
export function originCheck(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
    if (origin && !allowed.has(origin)) {
      return next(new ForbiddenException({ message: 'Cross-site requests are not allowed', code: 'bad_origin' }));
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const hasCustomHeader = typeof req.headers['x-requested-with'] === 'string';
    const formLike = type === 'application/x-www-form-urlencoded' || type === 'text/plain' || type === 'multipart/form-data';
    if (formLike && !hasCustomHeader) {
      return next(new ForbiddenException({ message: 'Cross-site requests are not allowed', code: 'bad_origin' }));
    }
    next();
  };
}

function refererOrigin(referer?: string): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

