import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Spec: the form offers Etsy and WordPress (a WooCommerce shop). */
export enum IntegrationType {
  Etsy = 'Etsy',
  WordPress = 'WordPress',
}

export interface KeyValue {
  key: string;
  value: string;
}

/** What is sealed in `secrets` (never returned by the API). */
export interface IntegrationSecrets {
  consumerSecret?: string;
  sharedSecret?: string;
  accessToken?: string;
  refreshToken?: string;
  /** PKCE code verifier of a pending Etsy authorisation. */
  codeVerifier?: string;
}

export interface IntegrationSettings {
  /** WooCommerce: the status a fulfilled order is given (default `completed`). */
  fulfilmentStatus?: string;
}

/** WooCommerce: the status fulfilment sets when the seller chose none. */
export const DEFAULT_WOO_FULFILMENT_STATUS = 'completed';

@Entity('integrations')
export class Integration {
  @PrimaryGeneratedColumn('uuid', { name: 'id' })
  _id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 12 })
  type: IntegrationType;

  /** Non-secret keys only (baseUrl, consumerKey, keystring). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  keys: KeyValue[];

  @Column({ type: 'text', nullable: true })
  secrets: string | null;

  @Column({ name: 'shop_key', type: 'varchar', length: 300, nullable: true })
  shopKey: string | null;

  @Column({ type: 'boolean', default: false })
  connected: boolean;

  @Column({ name: 'token_expires_at', type: 'timestamptz', nullable: true })
  tokenExpiresAt: Date | null;

  @Column({ name: 'auth_state', type: 'varchar', length: 100, nullable: true })
  authState: string | null;

  @Column({ name: 'auth_started_at', type: 'timestamptz', nullable: true })
  authStartedAt: Date | null;

  @Column({ name: 'last_sync', type: 'timestamptz', nullable: true })
  lastSync: Date | null;

  @Column({ name: 'sync_status', type: 'varchar', length: 12, nullable: true })
  syncStatus: 'queued' | 'running' | 'done' | 'failed' | null;

  @Column({ name: 'sync_error', type: 'varchar', length: 500, nullable: true })
  syncError: string | null;

  /** The seller's choices for this shop (not keys): see IntegrationSettings. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: IntegrationSettings;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

export const keyOf = (keys: KeyValue[], name: string) => keys.find((k) => k.key === name)?.value?.trim() || undefined;
