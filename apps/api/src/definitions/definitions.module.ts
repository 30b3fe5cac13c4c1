import { Module } from '@nestjs/common';
import { CatalogRefreshProducerModule } from '../catalog-refresh-queue/catalog-refresh-producer.module';
import { ListDefinitionSourcesUseCase } from './list-definition-sources.use-case';
import { GetDefinitionSourceUseCase } from './get-definition-source.use-case';
import { PutDefinitionSourceUseCase } from './put-definition-source.use-case';
import { ImportDefinitionSourceUseCase } from './import-definition-source.use-case';
import { DeleteDefinitionSourceUseCase } from './delete-definition-source.use-case';
import { ListDefinitionVariablesUseCase } from './list-definition-variables.use-case';
import { SetDefinitionVariableUseCase } from './set-definition-variable.use-case';
import { UnsetDefinitionVariableUseCase } from './unset-definition-variable.use-case';
import { SetDisableOverlayUseCase } from './set-disable-overlay.use-case';
import { ClearDisableOverlayUseCase } from './clear-disable-overlay.use-case';
import { GetEffectiveDefinitionsUseCase } from './get-effective-definitions.use-case';
import { PreviewDefinitionSourceUseCase } from './preview-definition-source.use-case';
import { ListDefinitionSourceVersionsUseCase } from './list-definition-source-versions.use-case';
import { GetDefinitionSourceVersionUseCase } from './get-definition-source-version.use-case';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/** Definition commands: sources per tier, variables, disable overlays and the effective view. */
@Module({
  imports: [EffectiveViewModule, CatalogRefreshProducerModule],
  providers: [
    ListDefinitionSourcesUseCase,
    GetDefinitionSourceUseCase,
    PutDefinitionSourceUseCase,
    ImportDefinitionSourceUseCase,
    DeleteDefinitionSourceUseCase,
    ListDefinitionVariablesUseCase,
    SetDefinitionVariableUseCase,
    UnsetDefinitionVariableUseCase,
    SetDisableOverlayUseCase,
    ClearDisableOverlayUseCase,
    GetEffectiveDefinitionsUseCase,
    PreviewDefinitionSourceUseCase,
    ListDefinitionSourceVersionsUseCase,
    GetDefinitionSourceVersionUseCase,
  ],
})
export class DefinitionsModule {}
