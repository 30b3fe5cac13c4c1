import { Module } from '@nestjs/common';
import { GetServerStatusUseCase } from './get-server-status.use-case';
import { SubmitProbeUseCase } from './submit-probe.use-case';

/** Probes: a worker's report of a leased server's connection state (probes.submit), and people's read of it with
 * the server's lease holders (servers.status). */
@Module({
  providers: [SubmitProbeUseCase, GetServerStatusUseCase],
})
export class ProbesModule {}
