import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { QueryFailedError, Repository } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/configuration';
import { EtsyApp, EtsyClient, etsyConnectUrl, pkcePair } from './clients/etsy.client';
import { HttpSettings, ShopClient, ShopError } from './clients/shop-client';
import { normalizeBaseUrl, WooCommerceClient } from './clients/woocommerce.client';
import { IntegrationBodyDto, SECRET_KEYS, WooAuthCallbackDto } from './dto/integration.dto';
import { Integration, IntegrationSecrets, IntegrationType, KeyValue, keyOf } from './entities/integration.entity';
import { BlockedAddressError, checkPublicHost } from './safe-http';
import { SecretBox } from './secret-box';

/** What the shop clients return and throw, for the order sync (orders/). */
export { ShopError } from './clients/shop-client';
export type { ShopOrder, ShopOrderItem, SyncWindow } from './clients/shop-client';
/** The shop clients, for fulfilment (orders/) to tell which shop it is writing to. */
export { EtsyClient } from './clients/etsy.client';
export { WooCommerceClient } from './clients/woocommerce.client';

export const MSG = {
  notFound: 'Integration not found',
  shopExists: 'Shop already exists.',
  authFailed: 'Authentication failed. Please try again.',
  notConnected: 'Please connect your integration to sync order',
  etsyNotConfigured: 'Etsy is not set up on this server (ETSY_KEYSTRING and ETSY_SHARED_SECRET), or give keystring and sharedSecret as keys',
  wooKeysMissing: 'Enter the site URL (baseUrl)',
};

/** A pending authorisation (Etsy consent or WooCommerce key approval) expires after this. */
const AUTH_TTL_MS = 60 * 60_000;
/** Refresh an Etsy access token this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;

@Injectable()
export class IntegrationsService {
  private readonly logger = new Logger('Integrations');
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(Integration) private readonly repo: Repository<Integration>,
  ) {
    this.box = new SecretBox(config.shops.secretKey);
  }

  get http(): HttpSettings {
    const s = this.config.shops;
    return { timeoutMs: s.requestTimeoutMs, allowPrivate: s.allowPrivateUrls, maxRetryWaitMs: s.maxRetryWaitMs };
  }

  secrets(i: Integration): IntegrationSecrets {
    return this.box.open<IntegrationSecrets>(i.secrets) ?? {};
  }

  private seal(i: Integration, s: IntegrationSecrets) {
    i.secrets = this.box.seal(s);
  }

  // ---- reading ----

  list(userId: string) {
    return this.repo.find({ where: { userId }, order: { createdAt: 'DESC', _id: 'DESC' } });
  }

  async get(userId: string, id: string): Promise<Integration> {
    const i = await this.repo.findOne({ where: { _id: id, userId } });
    if (!i) throw new NotFoundException(MSG.notFound);
    return i;
  }

  /** Connected shops, for the scheduled sync. */
  connectedIds(): Promise<string[]> {
    return this.repo.find({ where: { connected: true }, select: { _id: true } }).then((r) => r.map((i) => i._id));
  }

  byId(id: string) {
    return this.repo.findOne({ where: { _id: id } });
  }

  // ---- create, update, delete ----

  async create(userId: string, dto: IntegrationBodyDto): Promise<{ integration: Integration; connectUrl?: string }> {
    const i = this.repo.create({ userId, name: dto.name, type: dto.type, keys: [], connected: false, settings: {} });
    if (dto.fulfilmentStatus) i.settings = { fulfilmentStatus: dto.fulfilmentStatus };
    this.applyKeys(i, dto.keys ?? [], {});
    return this.connectAndSave(i);
  }

  async update(userId: string, id: string, dto: IntegrationBodyDto): Promise<{ integration: Integration; connectUrl?: string }> {
    const i = await this.get(userId, id);
    const typeChanged = i.type !== dto.type;
    const before = JSON.stringify(i.keys);
    const old = typeChanged ? {} : this.secrets(i);
    i.name = dto.name;
    i.type = dto.type;
    if (dto.fulfilmentStatus) i.settings = { ...i.settings, fulfilmentStatus: dto.fulfilmentStatus };
    if (dto.keys || typeChanged) this.applyKeys(i, dto.keys ?? [], old);
    const keysChanged = typeChanged || before !== JSON.stringify(i.keys) || (dto.keys ?? []).some((k) => SECRET_KEYS.has(k.key) && k.value);
    if (!keysChanged) return { integration: await this.save(i) };
    // Other keys, other shop: the old session no longer applies.
    i.connected = false;
    i.shopKey = null;
    i.tokenExpiresAt = null;
    const s = this.secrets(i);
    delete s.accessToken;
    delete s.refreshToken;
    this.seal(i, s);
    return this.connectAndSave(i);
  }

  async remove(userId: string, id: string) {
    const res = await this.repo.delete({ _id: id, userId });
    if (!res.affected) throw new NotFoundException(MSG.notFound);
  }

  /** Splits the submitted keys: public ones are stored as they are, secrets sealed (an empty secret keeps the stored one). */
  private applyKeys(i: Integration, keys: KeyValue[], old: IntegrationSecrets) {
    const allowed = i.type === IntegrationType.WordPress ? ['baseUrl', 'consumerKey', 'consumerSecret'] : ['keystring', 'sharedSecret'];
    const pub: KeyValue[] = [];
    const secrets: IntegrationSecrets = { ...old };
    for (const { key, value } of keys) {
      if (!allowed.includes(key)) throw new BadRequestException(`Unknown key ${key}; ${i.type} takes ${allowed.join(', ')}`);
      const v = value.trim();
      if (SECRET_KEYS.has(key)) {
        if (v) secrets[key as 'consumerSecret' | 'sharedSecret'] = v;
      } else if (v) {
        pub.push({ key, value: key === 'baseUrl' ? this.checkedBaseUrl(v) : v });
      }
    }
    i.keys = pub;
    this.seal(i, secrets);
  }

  private checkedBaseUrl(v: string): string {
    try {
      const u = new URL(/^https?:\/\//i.test(v) ? v : `https://${v}`);
      if (u.protocol !== 'https:' && !this.config.shops.allowPrivateUrls) throw new Error();
      return normalizeBaseUrl(u.toString());
    } catch {
      throw new BadRequestException('The site URL must be a valid https:// address');
    }
  }

  /** WooCommerce with keys: verified now. Otherwise the browser is sent to authorise. */
  private async connectAndSave(i: Integration): Promise<{ integration: Integration; connectUrl?: string }> {
    if (i.type === IntegrationType.WordPress) {
      const baseUrl = keyOf(i.keys, 'baseUrl');
      if (!baseUrl) throw new BadRequestException(MSG.wooKeysMissing);
      await this.assertPublicSite(baseUrl);
      i.shopKey = baseUrl;
      await this.assertNewShop(i);
      const consumerKey = keyOf(i.keys, 'consumerKey');
      const { consumerSecret } = this.secrets(i);
      if (consumerKey && consumerSecret) {
        await this.verifyWoo(baseUrl, consumerKey, consumerSecret);
        i.connected = true;
        i.syncError = null;
        return { integration: await this.save(i) };
      }
      if (consumerKey || consumerSecret) throw new BadRequestException('Enter both the consumer key and the consumer secret, or neither to authorise in WooCommerce');
      await this.save(i);
      return { integration: i, connectUrl: await this.startAuth(i) };
    }
    this.etsyApp(i); // fails early when Etsy is not set up
    await this.save(i);
    return { integration: i, connectUrl: await this.startAuth(i) };
  }

  /**
   * A shop's site must be on the public internet when it is saved, not only when we first
   * call it: without keys nothing is requested until the seller authorises, and the saved
   * URL must not point at our own network meanwhile. Checked again on every connect.
   */
  private async assertPublicSite(baseUrl: string) {
    try {
      await checkPublicHost(baseUrl, this.config.shops.allowPrivateUrls);
    } catch (e) {
      const host = new URL(baseUrl).host;
      if (e instanceof BlockedAddressError) {
        throw new BadRequestException({ message: `The site URL must point to a public address; ${host} is a private or loopback address`, code: 'private_address' });
      }
      throw new BadRequestException({ message: `The site ${host} could not be found. Check the URL.`, code: 'shop_unreachable' });
    }
  }

  private async verifyWoo(baseUrl: string, consumerKey: string, consumerSecret: string) {
    try {
      await new WooCommerceClient({ baseUrl, consumerKey, consumerSecret }, this.http).verify();
    } catch (e) {
      if (e instanceof ShopError) throw new BadRequestException({ message: e.message, code: e.kind === 'auth' ? 'auth_failed' : 'shop_unreachable' });
      throw e;
    }
  }

  private async assertNewShop(i: Integration) {
    if (!i.shopKey) return;
    const qb = this.repo
      .createQueryBuilder('i')
      .where('i.userId = :u AND i.type = :t AND i.shopKey = :k', { u: i.userId, t: i.type, k: i.shopKey });
    if (i._id) qb.andWhere('i._id <> :id', { id: i._id });
    if (await qb.getExists()) throw new ConflictException({ message: MSG.shopExists, code: 'shop_already_exists' });
  }

  private async save(i: Integration): Promise<Integration> {
    try {
      return await this.repo.save(i);
    } catch (e) {
      if (e instanceof QueryFailedError && (e as any).code === '23505') throw new ConflictException({ message: MSG.shopExists, code: 'shop_already_exists' });
      throw e;
    }
  }

  // ---- authorisation ----

  etsyApp(i: Integration): EtsyApp {
    const s = this.secrets(i);
    const keystring = keyOf(i.keys, 'keystring') ?? this.config.shops.etsy.keystring;
    const sharedSecret = s.sharedSecret ?? this.config.shops.etsy.sharedSecret;
    if (!keystring || !sharedSecret) throw new BadRequestException(MSG.etsyNotConfigured);
    return { keystring, sharedSecret, apiUrl: this.config.shops.etsy.apiUrl, connectUrl: this.config.shops.etsy.connectUrl };
  }

  /**
   * Which shop types a seller can add on this server, for the form: Etsy needs the server's
   * Etsy app (ETSY_KEYSTRING and ETSY_SHARED_SECRET), so without it Etsy is listed as
   * unavailable with the reason instead of failing after the seller filled in the form.
   * Only an admin is told which settings are missing.
   */
  availableTypes(admin: boolean): Array<{ type: IntegrationType; label: string; available: boolean; reason: string | null }> {
    const etsy = this.config.shops.etsy;
    const etsyReady = !!etsy.keystring && !!etsy.sharedSecret;
    const etsyReason = admin
      ? 'Etsy is not set up on this server: set ETSY_KEYSTRING and ETSY_SHARED_SECRET (the Etsy app\'s keystring and shared secret) and restart.'
      : 'Etsy is not set up on this server yet. Ask the administrator to connect the server\'s Etsy app.';
    return [
      { type: IntegrationType.WordPress, label: 'WooCommerce (WordPress)', available: true, reason: null },
      { type: IntegrationType.Etsy, label: 'Etsy', available: etsyReady, reason: etsyReady ? null : etsyReason },
    ];
  }

  etsyRedirectUri() {
    return `${this.config.appUrl}/api/integrations/etsy/callback`;
  }

  /** GET /integrations/{id}/auth: a new connect URL (WooCommerce with keys is verified instead). */
  async connect(userId: string, id: string): Promise<{ connectUrl?: string; connected: boolean }> {
    const i = await this.get(userId, id);
    if (i.type === IntegrationType.WordPress) await this.assertPublicSite(keyOf(i.keys, 'baseUrl')!);
    if (i.type === IntegrationType.WordPress && keyOf(i.keys, 'consumerKey') && this.secrets(i).consumerSecret) {
      await this.verifyWoo(keyOf(i.keys, 'baseUrl')!, keyOf(i.keys, 'consumerKey')!, this.secrets(i).consumerSecret!);
      i.connected = true;
      i.syncError = null;
      await this.save(i);
      return { connected: true };
    }
    return { connected: false, connectUrl: await this.startAuth(i) };
  }

  private async startAuth(i: Integration): Promise<string> {
    const state = randomBytes(24).toString('base64url');
    i.authState = state;
    i.authStartedAt = new Date();
    if (i.type === IntegrationType.Etsy) {
      const app = this.etsyApp(i);
      const { verifier, challenge } = pkcePair();
      this.seal(i, { ...this.secrets(i), codeVerifier: verifier });
      await this.save(i);
      return etsyConnectUrl(app, this.etsyRedirectUri(), state, challenge);
    }
    await this.save(i);
    const u = new URL(`${keyOf(i.keys, 'baseUrl')}/wc-auth/v1/authorize`);
    u.searchParams.set('app_name', 'GangSheet Studio');
    // read_write: fulfilment sets the order's status and adds a note.
    u.searchParams.set('scope', 'read_write');
    u.searchParams.set('user_id', state);
    u.searchParams.set('return_url', `${this.config.appUrl}/integrations?integration=${i._id}`);
    u.searchParams.set('callback_url', `${this.config.appUrl}/api/integrations/woocommerce/callback`);
    return u.toString();
  }

  private async byState(state: string | undefined, type: IntegrationType): Promise<Integration | null> {
    if (!state) return null;
    const i = await this.repo.findOne({ where: { authState: state, type } });
    if (!i || !i.authStartedAt || Date.now() - i.authStartedAt.getTime() > AUTH_TTL_MS) return null;
    return i;
  }

  /**
   * Etsy redirected the browser back: check `state`, exchange the code with the PKCE
   * verifier, find the shop. Answers where to send the browser (with the spec's error code).
   */
  async etsyCallback(q: { code?: string; state?: string; error?: string }): Promise<string> {
    const back = (params: string) => `${this.config.appUrl}/integrations?${params}`;
    const i = await this.byState(q.state, IntegrationType.Etsy);
    if (!i) return back('error=auth_failed');
    i.authState = null; // single use, whatever happens next
    const secrets = this.secrets(i);
    const verifier = secrets.codeVerifier;
    delete secrets.codeVerifier;
    this.seal(i, secrets);
    await this.repo.save(i);
    if (q.error || !q.code || !verifier) return back(`error=auth_failed&integration=${i._id}`);
    try {
      const app = this.etsyApp(i);
      const tokens = await EtsyClient.token(app, this.http, { grant_type: 'authorization_code', redirect_uri: this.etsyRedirectUri(), code: q.code, code_verifier: verifier });
      const me = await EtsyClient.me(app, this.http, tokens.accessToken);
      i.shopKey = me.shopId;
      await this.assertNewShop(i);
      this.seal(i, { ...secrets, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
      i.tokenExpiresAt = tokens.expiresAt;
      i.connected = true;
      i.syncError = null;
      await this.save(i);
      return back(`connected=${i._id}`);
    } catch (e) {
      if (e instanceof ConflictException) return back(`error=shop_already_exists&integration=${i._id}`);
      this.logger.warn(`Etsy authorisation of ${i._id} failed: ${(e as Error).message}`);
      return back(`error=auth_failed&integration=${i._id}`);
    }
  }

  /** WooCommerce POSTs the new keys here; only a 200 keeps them, so anything wrong answers 400. */
  async wooCallback(body: WooAuthCallbackDto): Promise<void> {
    const i = await this.byState(body.user_id, IntegrationType.WordPress);
    if (!i) throw new BadRequestException(MSG.authFailed);
    const baseUrl = keyOf(i.keys, 'baseUrl')!;
    await this.verifyWoo(baseUrl, body.consumer_key, body.consumer_secret);
    i.authState = null;
    i.keys = [...i.keys.filter((k) => k.key !== 'consumerKey'), { key: 'consumerKey', value: body.consumer_key }];
    this.seal(i, { ...this.secrets(i), consumerSecret: body.consumer_secret });
    i.connected = true;
    i.syncError = null;
    await this.save(i);
  }

  // ---- clients for the sync ----

  /**
   * A valid Etsy access token: refreshed when it is about to expire (or `force`), storing
   * the rotated refresh token. A refused refresh disconnects the integration.
   */
  private async etsyToken(integrationId: string, force: boolean): Promise<string> {
    const i = await this.repo.findOne({ where: { _id: integrationId } });
    if (!i?.connected) throw new ShopError(MSG.notConnected, 'auth');
    const s = this.secrets(i);
    if (!force && s.accessToken && i.tokenExpiresAt && i.tokenExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS) return s.accessToken;
    if (!s.refreshToken) throw new ShopError(MSG.notConnected, 'auth');
    try {
      const t = await EtsyClient.token(this.etsyApp(i), this.http, { grant_type: 'refresh_token', refresh_token: s.refreshToken });
      this.seal(i, { ...s, accessToken: t.accessToken, refreshToken: t.refreshToken ?? s.refreshToken });
      i.tokenExpiresAt = t.expiresAt;
      await this.repo.save(i);
      return t.accessToken;
    } catch (e) {
      if (e instanceof ShopError && e.kind === 'auth') {
        const reason = `Etsy ended the session ${e.message.replace(/^Etsy refused the authorisation /, '')}. Please connect the integration again.`;
        await this.disconnect(i, reason);
        throw new ShopError(reason, 'auth');
      }
      throw e;
    }
  }

  async disconnect(i: Integration, reason: string) {
    const s = this.secrets(i);
    delete s.accessToken;
    delete s.refreshToken;
    this.seal(i, s);
    i.connected = false;
    i.tokenExpiresAt = null;
    i.syncError = reason.slice(0, 500);
    await this.repo.save(i);
  }

  clientFor(i: Integration): ShopClient {
    if (!i.connected) throw new ShopError(MSG.notConnected, 'auth');
    if (i.type === IntegrationType.WordPress) {
      return new WooCommerceClient(
        { baseUrl: keyOf(i.keys, 'baseUrl')!, consumerKey: keyOf(i.keys, 'consumerKey')!, consumerSecret: this.secrets(i).consumerSecret ?? '' },
        this.http,
      );
    }
    return new EtsyClient(this.etsyApp(i), this.http, (force) => this.etsyToken(i._id, force), i.shopKey!);
  }

  /** Sync bookkeeping (columns of the integration row only). */
  async markSync(id: string, patch: Partial<Pick<Integration, 'syncStatus' | 'syncError' | 'lastSync'>>) {
    await this.repo.update({ _id: id }, patch);
  }
}
