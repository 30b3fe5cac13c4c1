import { Module } from '@nestjs/common';
import { AdmissionModule } from './admission/admission.module.js';
import { ApprovalsModule } from './approvals/approvals.module.js';
import { AuditModule } from './audit/audit.module.js';
import { IdentityModule } from './auth/identity.module.js';
import { CommandRegistryModule } from './admin-surfaces/registry/command-registry.module.js';
import { TenancyModule } from './tenancy/tenancy.module.js';
import { TokensModule } from './auth/tokens.module.js';
import { WorkspacesModule } from './workspaces/workspaces.module.js';
import { DefinitionsModule } from './definitions/definitions.module.js';
import { HostPolicyModule } from './host-policy/host-policy.module.js';
import { CatalogModule } from './catalog/catalog.module.js';
import { CatalogRefreshModule } from './catalog-refresh/catalog-refresh.module.js';
import { ChangeNotifierModule } from './commands/long-poll/change-notifier.module.js';
import { LeasesModule } from './leases/leases.module.js';
import { ProbesModule } from './probes/probes.module.js';
import { GatewayActivityModule } from './gateway-activity/gateway-activity.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { RevocationReadsModule } from './revocations/revocation-reads.module.js';

/**
 * Every feature module whose use cases serve a command, and the registry that discovers them. A new feature
 * adds its module here once; a new command in an existing feature is its declaration and its use case only.
 */
@Module({
  imports: [
    CommandRegistryModule,
    ChangeNotifierModule,
    IdentityModule,
    TenancyModule,
    WorkspacesModule,
    TokensModule,
    AuditModule,
    DefinitionsModule,
    HostPolicyModule,
    ApprovalsModule,
    AdmissionModule,
    LeasesModule,
    CatalogModule,
    CatalogRefreshModule,
    ProbesModule,
    GatewayActivityModule,
    OAuthModule,
    RevocationReadsModule,
  ],
  exports: [CommandRegistryModule],
})
export class CommandFeaturesModule {}
