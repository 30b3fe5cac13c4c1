import type { Registry } from '@gatehouse/platform';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { METRICS_REGISTRY } from '../infrastructure/infrastructure.tokens.js';

@Controller()
export class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  /** Prometheus text exposition. */
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}
