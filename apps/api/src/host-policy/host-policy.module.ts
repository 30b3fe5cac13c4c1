import { Module } from '@nestjs/common';
import { GetHostPolicyUseCase } from './get-host-policy.use-case';
import { PutHostPolicyUseCase } from './put-host-policy.use-case';

/** Host policy commands: the tenant's narrowing of the operator's ceiling. */
@Module({
  providers: [
    GetHostPolicyUseCase,
    PutHostPolicyUseCase,
  ],
})
export class HostPolicyModule {}
