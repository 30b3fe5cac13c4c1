import { Module } from '@nestjs/common';
import { GetGatewayActivityUseCase } from './get-gateway-activity.use-case';

/** The gateway's live activity per workspace, as its replicas left it in Redis (gateway.activity, decision 0118). */
@Module({
  providers: [GetGatewayActivityUseCase],
})
export class GatewayActivityModule {}
