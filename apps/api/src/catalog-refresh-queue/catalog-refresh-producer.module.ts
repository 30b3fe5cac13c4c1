import { Module } from '@nestjs/common';
import { CatalogRefreshProducer } from './catalog-refresh-producer';
import { CatalogRefreshQueues } from './catalog-refresh-queues';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/**
 * Enqueueing catalog refreshes: what the approval, definition and workspace modules import to trigger discovery
 * after a change, and the queues the sweep schedules on. One module instance (Nest shares it), so the queues open
 * once.
 */
@Module({
  imports: [EffectiveViewModule],
  providers: [CatalogRefreshQueues, CatalogRefreshProducer],
  exports: [CatalogRefreshProducer, CatalogRefreshQueues],
})
export class CatalogRefreshProducerModule {}
