import { Module } from '@nestjs/common';
import { CatalogSweepScheduler } from './catalog-sweep-scheduler';
import { RefreshCatalogUseCase } from './refresh-catalog.use-case';
import { StaleCatalogsSweep } from './stale-catalogs-sweep';
import { CatalogRefreshProducerModule } from '../catalog-refresh-queue/catalog-refresh-producer.module';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/**
 * The API as the producer of catalog refresh jobs: `catalog.refresh` and the periodic sweep on a BullMQ job
 * scheduler. The triggers after a change (approvals, definitions, workspace trust) enqueue through
 * CatalogRefreshProducerModule, which they import themselves.
 */
@Module({
  imports: [EffectiveViewModule, CatalogRefreshProducerModule],
  providers: [StaleCatalogsSweep, CatalogSweepScheduler, RefreshCatalogUseCase],
})
export class CatalogRefreshModule {}
