// The access token a lease carries to an OAuth-protected server (decision 0082). The API is the
// only holder of refresh tokens: an expired access token is refreshed here, once per credential across every
// API process (RefreshCoordinator: a Redis FencingLock plus the version compare-and-swap of
// PostgresTokenStore), and only the access token leaves, in the lease.
import { createHash } from 'node:crypto';
import { FencingLock, revocationNamespaceOf } from '@gatehouse/coordination';
import { listOAuthCredentialsOfSubject, type Database, type OAuthSubjectRef } from '@gatehouse/db';
import {
  canonicalResourceUri,
  RefreshCoordinator,
  type AccessTokenRefusal,
  type CredentialKey,
} from '@gatehouse/oauth';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../config/api.config';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import { API_CONFIG, DATABASE, REDIS } from '../infrastructure/infrastructure-tokens';
import { registeredClientFor } from './oauth-client-lookup';
import { OAUTH_RUNTIME, type OAuthRuntime } from './oauth-runtime';
import { PostgresTokenStore } from './postgres-token.store';

export interface LeaseAccessTokenRequest {
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly tenantPolicy: TenantHostPolicy;
  readonly workspaceId: string;
  /** The principal the lease is for; null: the workspace alone (only a service credential can serve it). */
  readonly principalUserId: string | null;
  /** The server's security identity key (part of every credential's key). */
  readonly serverIdentity: string;
  /** The URL the definition declares (its canonical form is the resource the tokens were issued for). */
  readonly serverUrl: string;
  /** The definition allows a workspace service credential (shared use). */
  readonly allowSharedCredential: boolean;
  /** SHA-256 (base64url) of an access token the server refused: refreshed first if it is still the stored one. */
  readonly refusedAccessTokenSha256?: string;
}

/** Why no token: only a (new) sign-in helps, or a refresh could not be made now (retry later). */
export type LeaseAccessTokenRefusal = 'needs_sign_in' | 'refresh_unavailable';

export type LeaseAccessToken =
  | {
      readonly ok: true;
      readonly accessToken: string;
      /** Epoch ms; null when the authorization server gave no expiry. */
      readonly expiresAt: number | null;
      /** Whose credential it is: the principal's own, or the workspace's service credential. */
      readonly subject: 'user' | 'workspace';
    }
  | { readonly ok: false; readonly reason: LeaseAccessTokenRefusal };

@Injectable()
export class LeaseAccessTokens {
  private readonly coordinator: RefreshCoordinator;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
    @Inject(REDIS) redis: Redis,
    @Inject(API_CONFIG) config: ApiConfig,
  ) {
    this.coordinator = new RefreshCoordinator({
      lock: new FencingLock({ connection: redis, namespace: revocationNamespaceOf(config.REDIS_KEY_PREFIX) }),
      store: new PostgresTokenStore(db, runtime.cipher),
      clientFor: (issuer, clientId, key) =>
        registeredClientFor(db, runtime.cipher, key.tenantId, issuer, clientId),
      lockTtlMs: config.OAUTH_REFRESH_LOCK_TTL_MS,
      grantTimeoutMs: config.OAUTH_REFRESH_GRANT_TIMEOUT_MS,
      leaseMarginMs: config.OAUTH_REFRESH_LEASE_MARGIN_MS,
    });
  }

  /**
   * The principal's own credential first, then (where the definition allows shared use) the workspace's
   * service credential. Within one subject, its credentials for this server identity and canonical URL, newest
   * first (one per issuer). The first usable token wins; a refresh that could not be made now is reported as
   * such only when nothing else served.
   */
  async forLease(request: LeaseAccessTokenRequest): Promise<LeaseAccessToken> {
    const resource = canonicalResourceUri(request.serverUrl);
    if (resource === null) return { ok: false, reason: 'needs_sign_in' };
    const subjects: { readonly ref: OAuthSubjectRef; readonly kind: 'user' | 'workspace' }[] = [];
    if (request.principalUserId !== null)
      subjects.push({ ref: { kind: 'user', userId: request.principalUserId }, kind: 'user' });
    if (request.allowSharedCredential)
      subjects.push({ ref: { kind: 'workspace', workspaceId: request.workspaceId }, kind: 'workspace' });

    const keys = await this.db.withTenant(request.tenantId, async (tx) => {
      const found: { key: CredentialKey; kind: 'user' | 'workspace' }[] = [];
      for (const subject of subjects) {
        const rows = await listOAuthCredentialsOfSubject(tx, subject.ref);
        for (const row of rows) {
          if (row.identity.serverIdentity !== request.serverIdentity || row.identity.resource !== resource)
            continue;
          found.push({
            kind: subject.kind,
            key: {
              tenantId: request.tenantId,
              subject: subject.ref,
              serverIdentity: row.identity.serverIdentity,
              resource: row.identity.resource,
              issuer: row.identity.issuer,
            },
          });
        }
      }
      return found;
    });
    if (keys.length === 0) return { ok: false, reason: 'needs_sign_in' };

    const egress = this.runtime.egressFor(request.tenantSlug, request.tenantPolicy);
    let unavailable = false;
    try {
      for (const { key, kind } of keys) {
        const via = egress ? { fetch: egress.fetch } : {};
        let token = await this.coordinator.getAccessToken(key, via);
        // The holder's server refused exactly this token: one refresh, shared with everyone refused together
        // (a token someone replaced meanwhile is returned as it is, without a refresh).
        if (token.ok && request.refusedAccessTokenSha256 === sha256(token.accessToken))
          token = await this.coordinator.refresh(key, { ...via, rejectedAccessToken: token.accessToken });
        if (token.ok)
          return { ok: true, accessToken: token.accessToken, expiresAt: token.expiresAt, subject: kind };
        unavailable ||= isRetryable(token.reason);
      }
    } catch (error) {
      // No egress for this tenant (no pool open to it), and the stored token needed a refresh.
      if (egress !== null) throw error;
      unavailable = true;
    } finally {
      await egress?.fetch.close();
    }
    return { ok: false, reason: unavailable ? 'refresh_unavailable' : 'needs_sign_in' };
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

function isRetryable(reason: AccessTokenRefusal): boolean {
  return reason === 'refresh_unavailable';
}
