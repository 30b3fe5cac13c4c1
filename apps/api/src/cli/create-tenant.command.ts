import { createTenant } from '../auth/create-tenant';
import { parseCommandArgs, required } from './cli-args';
import { OPERATOR_ACTOR, type CliContext } from './cli-context';
import { CliError } from './cli-io';

export const CREATE_TENANT_USAGE = 'gatehouse admin create-tenant --slug SLUG --name NAME [--json]';

export async function createTenantCommand(args: readonly string[], ctx: CliContext): Promise<void> {
  const values = parseCommandArgs(args, {
    slug: { type: 'string' },
    name: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const slug = required(values.slug, 'slug');
  const result = await createTenant(ctx.database(), {
    slug,
    name: required(values.name, 'name'),
    actor: OPERATOR_ACTOR,
  });
  if (!result.ok) {
    switch (result.reason) {
      case 'invalid_slug':
        throw new CliError(
          '--slug must be 1-63 lowercase letters, digits and dashes, starting with a letter or digit',
        );
      case 'invalid_name':
        throw new CliError('--name must be 1-120 characters');
      case 'slug_taken':
        throw new CliError(`a tenant with slug ${slug} already exists`);
    }
  }
  ctx.print(
    { tenantId: result.tenant.id, slug: result.tenant.slug, name: result.tenant.name },
    values.json === true,
  );
}
