import { Module } from '@nestjs/common';
import { CatalogRefreshProducer } from './catalog-refresh-producer';
import { CatalogRefreshQueues } from './catalog-refresh-queues';
import { CatalogSweepScheduler } from './catalog-sweep-scheduler';
import { RefreshCatalogUseCase } from './refresh-catalog.use-case';
import { StaleCatalogsSweep } from './stale-catalogs-sweep';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/**
 * The API as the producer of catalog refresh jobs: the triggers (approvals, definition changes, `catalog.refresh`)
 * through CatalogRefreshProducer, which the approval, definition and workspace modules import, and the periodic
 * sweep on a BullMQ job scheduler.
 */
@Module({
  imports: [EffectiveViewModule],
  providers: [
    CatalogRefreshQueues,
    CatalogRefreshProducer,
    StaleCatalogsSweep,
    CatalogSweepScheduler,
    RefreshCatalogUseCase,
  ],
  exports: [CatalogRefreshProducer],
})
export class CatalogRefreshModule {}
