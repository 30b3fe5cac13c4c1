import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Registry } from 'prom-client';
import type { HealthChecks, HealthReport } from '../health/health-checks.js';
import { OPERATIONAL_METRICS, READINESS_CHECKS } from './operational-tokens.js';

/** `/healthz`, `/readyz` and `/metrics`, the same in every app. */
@Controller()
export class OperationalController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: HealthChecks,
    @Inject(OPERATIONAL_METRICS) private readonly registry: Registry,
  ) {}

  /** Liveness: the process serves HTTP. Touches no dependency, so an outage elsewhere does not restart pods. */
  @Get('healthz')
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: every dependency answers; 503 with the per-check status otherwise. */
  @Get('readyz')
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.checks.run();
    reply.header('cache-control', 'no-store');
    if (report.status !== 'ok') reply.status(503);
    return report;
  }

  /** Prometheus text exposition. */
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}
