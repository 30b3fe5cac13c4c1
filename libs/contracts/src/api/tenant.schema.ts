import { z } from 'zod';
import { displayName, isoDateTime, uuid } from './common.schema';

export const tenantView = z
  .object({ id: uuid, slug: z.string(), name: z.string(), createdAt: isoDateTime })
  .meta({ title: 'Tenant' });

export const getTenantInput = z.strictObject({});
export const renameTenantInput = z.strictObject({ name: displayName });
