import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { InfrastructureModule, type ApiInfrastructure } from './infrastructure/infrastructure.module.js';
import { RevocationsModule } from './revocations/revocations.module.js';

export type AppModuleOptions = {
  infrastructure: ApiInfrastructure;
  /** Further modules to mount (tests mount a module with a probe route here). */
  imports?: ModuleMetadata['imports'];
};

/**
 * The API's root module; feature modules are added to `imports` as issues land. Health and metrics are the
 * platform's OperationalModule, which createServiceApp mounts beside it.
 */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(options.infrastructure),
        RevocationsModule,
        ...(options.imports ?? []),
      ],
    };
  }
}
