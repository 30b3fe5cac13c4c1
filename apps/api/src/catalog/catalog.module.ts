import { Module } from '@nestjs/common';
import { GetWorkspaceCatalogUseCase } from './get-workspace-catalog.use-case';
import { ReportDiscoveryFailureUseCase } from './report-discovery-failure.use-case';
import { SubmitCatalogSnapshotUseCase } from './submit-catalog-snapshot.use-case';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/**
 * Catalog snapshots and discovery failures (submit, reportFailure: worker tokens, for a lease they hold) and the
 * catalog lease (get).
 */
@Module({
  imports: [EffectiveViewModule],
  providers: [SubmitCatalogSnapshotUseCase, ReportDiscoveryFailureUseCase, GetWorkspaceCatalogUseCase],
})
export class CatalogModule {}
