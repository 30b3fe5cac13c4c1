import { Module } from '@nestjs/common';
import { EffectiveView } from './effective-view.service';

/**
 * Provides the effective view to the features that import this module. Beneath every feature: it needs only the
 * definition cipher, which the global command dependencies provide.
 */
@Module({
  providers: [EffectiveView],
  exports: [EffectiveView],
})
export class EffectiveViewModule {}
