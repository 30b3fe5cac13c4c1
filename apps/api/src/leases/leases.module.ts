import { Module } from '@nestjs/common';
import { OAuthCredentialsModule } from '../oauth-credentials/oauth-credentials.module';
import { IssueLeaseUseCase } from './issue-lease.use-case';
import { ReleaseLeaseUseCase } from './release-lease.use-case';
import { RenewLeaseUseCase } from './renew-lease.use-case';

/** Transport leases: issue, renew and release (worker and gateway tokens). */
@Module({
  imports: [OAuthCredentialsModule],
  providers: [IssueLeaseUseCase, RenewLeaseUseCase, ReleaseLeaseUseCase],
})
export class LeasesModule {}
