import { Module } from '@nestjs/common';
import { SubmitProbeUseCase } from './submit-probe.use-case';

/** Probes: a worker's report of a leased server's connection state (probes.submit). */
@Module({
  providers: [SubmitProbeUseCase],
})
export class ProbesModule {}
