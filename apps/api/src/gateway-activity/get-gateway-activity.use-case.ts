import { type CommandInput, type CommandOutput, getGatewayActivity } from '@gatehouse/commands';
import { gatewayActivityView } from '@gatehouse/contracts';
import type { Database } from '@gatehouse/db';
import { ProblemError } from '@gatehouse/platform';
import { Inject } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import type { ApiConfig } from '../config/api.config';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { API_CONFIG, DATABASE, REDIS } from '../infrastructure/infrastructure-tokens';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { readGatewayActivity } from './gateway-activity-reader';

type Input = CommandInput<typeof getGatewayActivity>;
type Output = CommandOutput<typeof getGatewayActivity>;

/**
 * `gateway.activity` (decision 0118): the workspace is found in the caller's tenant under row-level security
 * first (404 otherwise, before Redis is asked anything: another tenant's id reads as nobody's), then the numbers
 * the gateway replicas flushed for it. Redis keys are named by the workspace id alone, so this check is what keeps
 * tenants apart.
 */
@HandlesCommand(getGatewayActivity)
export class GetGatewayActivityUseCase implements UseCaseFor<typeof getGatewayActivity> {
  private readonly keyPrefix: string;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {
    this.keyPrefix = config.REDIS_KEY_PREFIX ?? 'gatehouse:';
  }

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const workspace = await this.db.withTenant(principal.tenantId, (tx) =>
      findVisibleWorkspace(tx, principal, input.workspaceId),
    );
    let activity;
    try {
      activity = await readGatewayActivity(this.redis, {
        keyPrefix: this.keyPrefix,
        workspaceId: workspace.id,
        nowMs: this.clock().getTime(),
      });
    } catch {
      // Redis away: a typed answer, never its error text.
      throw new ProblemError({
        status: 503,
        code: 'dependency_unavailable',
        title: 'Unavailable',
        detail: 'The gateway activity could not be read. Try again.',
      });
    }
    return gatewayActivityView.parse(activity);
  }
}
