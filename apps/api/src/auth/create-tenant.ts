import { randomUUID } from 'node:crypto';
import { findTenantIdBySlug, type Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import { isUniqueViolation } from '../shared/unique-violation';
import { isTenantSlug } from './tenant-slug';

export interface CreateTenantOptions {
  readonly slug: string;
  readonly name: string;
  /** Recorded as the first event of the new tenant's audit chain. */
  readonly actor: AuditEventInput['actor'];
}

export interface CreatedTenant {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly createdAt: Date;
}

export type CreateTenantResult =
  | { readonly ok: true; readonly tenant: CreatedTenant }
  | { readonly ok: false; readonly reason: 'invalid_slug' | 'invalid_name' | 'slug_taken' };

export const TENANT_NAME_MAX_LENGTH = 120;

/** A tenant row is its own scope: it is inserted inside its own (new) tenant context, with its audit event. */
export async function createTenant(db: Database, options: CreateTenantOptions): Promise<CreateTenantResult> {
  const slug = options.slug.trim();
  const name = options.name.trim();
  if (!isTenantSlug(slug)) return { ok: false, reason: 'invalid_slug' };
  if (name.length === 0 || name.length > TENANT_NAME_MAX_LENGTH) return { ok: false, reason: 'invalid_name' };
  if ((await findTenantIdBySlug(db, slug)) !== null) return { ok: false, reason: 'slug_taken' };

  const id = randomUUID();
  try {
    const tenant = await db.withTenant(id, async (tx) => {
      const created = await tx.tenant.create({ data: { id, slug, name } });
      await appendAuditEvent(tx, {
        actor: options.actor,
        action: 'tenant.create',
        target: { type: 'tenant', id },
        outcome: 'success',
        data: { slug },
      });
      return created;
    });
    return {
      ok: true,
      tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name, createdAt: tenant.createdAt },
    };
  } catch (error) {
    // Two creators raced past the lookup: the unique slug decides.
    if (isUniqueViolation(error)) return { ok: false, reason: 'slug_taken' };
    throw error;
  }
}
