import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';

/**
 * Server-side captcha check. reCAPTCHA v2 and Turnstile share the siteverify protocol:
 * POST form fields secret, response, remoteip → JSON { success, "error-codes" }.
 */
@Injectable()
export class CaptchaService {
  private readonly logger = new Logger('Captcha');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.captcha.provider !== 'none';
  }

  publicConfig() {
    return { provider: this.config.captcha.provider, siteKey: this.enabled ? (this.config.captcha.siteKey ?? null) : null };
  }

  async verify(token: string, remoteIp?: string): Promise<boolean> {
    if (!this.enabled) return true;
    if (!token) return false;
    const body = new URLSearchParams({ secret: this.config.captcha.secret ?? '', response: token });
    if (remoteIp) body.set('remoteip', remoteIp);
    try {
      const res = await fetch(this.config.captcha.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) {
        this.logger.warn(`siteverify answered ${res.status}`);
        return false;
      }
      const json = (await res.json()) as { success?: boolean; 'error-codes'?: string[] };
      if (!json.success) this.logger.debug(`captcha refused: ${json['error-codes']?.join(',')}`);
      return json.success === true;
    } catch (e) {
      this.logger.warn(`siteverify unreachable: ${e}`);
      return false;
    }
  }
}
