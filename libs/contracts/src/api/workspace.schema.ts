import { z } from 'zod';
import {
  isoDateTime,
  notTokenShaped,
  page,
  pageInput,
  resourceName,
  TOKEN_SHAPED_MESSAGE,
  uuid,
} from './common.schema';

// Audited when a workspace is created (and carried into approval events): token-shaped text is a 400, not a 500.
export const repositoryIdentity = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);

export const workspaceView = z
  .object({
    id: uuid,
    name: z.string(),
    repositoryIdentity: z.string().nullable(),
    generation: z.number().int(),
    trusted: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ title: 'Workspace' });
export const workspacePage = page(workspaceView).meta({ title: 'WorkspacePage' });

export const maintainerView = z
  .object({ userId: uuid, email: z.string(), displayName: z.string(), since: isoDateTime })
  .meta({ title: 'WorkspaceMaintainer' });
export const maintainerPage = page(maintainerView).meta({ title: 'WorkspaceMaintainerPage' });
export const maintainerRemoval = z.object({ removed: z.boolean() }).meta({ title: 'MaintainerRemoval' });

export const listWorkspacesInput = z.strictObject({ ...pageInput });
export const getWorkspaceInput = z.strictObject({ workspaceId: uuid });
export const createWorkspaceInput = z.strictObject({
  name: resourceName,
  repositoryIdentity: repositoryIdentity.optional(),
});
export const renameWorkspaceInput = z.strictObject({ workspaceId: uuid, name: resourceName });
export const setWorkspaceTrustInput = z.strictObject({ workspaceId: uuid, trusted: z.boolean() });
export const bumpWorkspaceGenerationInput = z.strictObject({
  workspaceId: uuid,
  expectedGeneration: z.number().int().min(1).optional(),
});
export const listWorkspaceMaintainersInput = z.strictObject({ workspaceId: uuid, ...pageInput });
export const addWorkspaceMaintainerInput = z.strictObject({ workspaceId: uuid, userId: uuid });
export const removeWorkspaceMaintainerInput = z.strictObject({ workspaceId: uuid, userId: uuid });
