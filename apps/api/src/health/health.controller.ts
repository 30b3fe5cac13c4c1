import type { HealthChecks, HealthReport } from '@gatehouse/platform';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HEALTH_CHECKS } from './health.tokens.js';

@Controller()
export class HealthController {
  constructor(@Inject(HEALTH_CHECKS) private readonly checks: HealthChecks) {}

  /** Liveness: the process is serving HTTP. Never touches a dependency, so a database outage does not restart pods. */
  @Get('healthz')
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: Postgres and Redis answer. 503 with the per-check status otherwise. */
  @Get('readyz')
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.checks.run();
    reply.header('cache-control', 'no-store');
    if (report.status !== 'ok') reply.status(503);
    return report;
  }
}
