import { CanActivate, ExecutionContext, ForbiddenException, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { viaApiKey } from './api-key.middleware';

export const SESSION_ONLY = 'sessionOnly';
/** The route needs a signed-in browser: an API key cannot use it (e.g. to mint more keys). */
export const SessionOnly = () => SetMetadata(SESSION_ONLY, true);

/** Global: @SessionOnly() routes answer 403 to requests made with an API key. */
@Injectable()
export class SessionOnlyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const only = this.reflector.getAllAndOverride<boolean>(SESSION_ONLY, [context.getHandler(), context.getClass()]);
    if (only && viaApiKey(context.switchToHttp().getRequest()))
      throw new ForbiddenException({ message: 'API keys can only be managed when signed in on the website.', code: 'session_required' });
    return true;
  }
}
