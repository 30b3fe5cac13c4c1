import { Module } from '@nestjs/common';
import { CatalogRefreshProducerModule } from '../catalog-refresh-queue/catalog-refresh-producer.module';
import { ListWorkspacesUseCase } from './list-workspaces.use-case';
import { GetWorkspaceUseCase } from './get-workspace.use-case';
import { CreateWorkspaceUseCase } from './create-workspace.use-case';
import { RenameWorkspaceUseCase } from './rename-workspace.use-case';
import { SetWorkspaceTrustUseCase } from './set-workspace-trust.use-case';
import { BumpWorkspaceGenerationUseCase } from './bump-workspace-generation.use-case';
import { ListWorkspaceMaintainersUseCase } from './list-workspace-maintainers.use-case';
import { AddWorkspaceMaintainerUseCase } from './add-workspace-maintainer.use-case';
import { RemoveWorkspaceMaintainerUseCase } from './remove-workspace-maintainer.use-case';

/** Workspace commands: workspaces, their trust and generation, and their maintainers. */
@Module({
  imports: [CatalogRefreshProducerModule],
  providers: [
    ListWorkspacesUseCase,
    GetWorkspaceUseCase,
    CreateWorkspaceUseCase,
    RenameWorkspaceUseCase,
    SetWorkspaceTrustUseCase,
    BumpWorkspaceGenerationUseCase,
    ListWorkspaceMaintainersUseCase,
    AddWorkspaceMaintainerUseCase,
    RemoveWorkspaceMaintainerUseCase,
  ],
})
export class WorkspacesModule {}
