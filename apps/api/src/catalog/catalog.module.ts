import { Module } from '@nestjs/common';
import { SubmitCatalogSnapshotUseCase } from './submit-catalog-snapshot.use-case';

/** Catalog snapshots: submit (worker tokens, for a lease they hold). */
@Module({
  providers: [SubmitCatalogSnapshotUseCase],
})
export class CatalogModule {}
