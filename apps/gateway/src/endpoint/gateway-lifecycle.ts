import { HeldLeases } from '@gatehouse/lease-holder';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { GatewayActivityRecorder } from '../activity/gateway-activity-recorder.js';
import { McpServing } from '../mcp-server/mcp-serving.js';
import type { GatewayRevocationsHolder } from '../revocations/gateway-revocations.holder.js';
import type { UpstreamPool } from '../upstreams/upstream-pool.js';
import { GATEWAY_ACTIVITY, GATEWAY_REVOCATIONS, UPSTREAM_POOL } from './gateway-tokens.js';

/**
 * Starts the gateway's collaborators that own resources once the app is up, and closes them in the one order
 * that loses nothing: the sessions first (no request is being served), then the activity (its last flush writes
 * this replica's session counts as gone), then the held leases and the upstreams (their children), then the
 * revocation holder (it evicts until the upstreams are gone). Nest calls one level of the dependency graph's
 * hooks at once, so this order is kept here rather than spread over the providers' own hooks.
 */
@Injectable()
export class GatewayLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(McpServing) private readonly sessions: McpServing,
    @Inject(GATEWAY_ACTIVITY) private readonly activity: GatewayActivityRecorder | null,
    @Inject(HeldLeases) private readonly held: HeldLeases,
    @Inject(UPSTREAM_POOL) private readonly upstreams: UpstreamPool | null,
    @Inject(GATEWAY_REVOCATIONS) private readonly revocations: GatewayRevocationsHolder | null,
  ) {}

  onApplicationBootstrap(): void {
    this.activity?.start();
    // Not awaited: the gateway may start before the API or Redis; the holder retries, /readyz says not ready.
    this.revocations?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sessions.close();
    await this.activity?.close();
    this.held.drop('shutdown');
    await this.upstreams?.close();
    await this.revocations?.close();
  }
}
