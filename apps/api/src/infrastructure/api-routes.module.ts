import type { CommandDefinition } from '@gatehouse/commands';
import { Module, type DynamicModule } from '@nestjs/common';
import type { IdentitySettings } from '../auth/identity-deps.js';
import { IdentityAuthModule } from '../auth/identity-auth.module.js';
import { CommandFeaturesModule } from '../command-features.module.js';
import { OAuthCredentialsModule } from '../oauth-credentials/oauth-credentials.module.js';
import { ApiRoutes } from './api-routes.js';
import { API_COMMANDS } from './api-routes-tokens.js';

export interface ApiRoutesOptions {
  readonly identity: IdentitySettings;
  readonly commands: readonly CommandDefinition[];
}

/**
 * The API's Fastify routes (ApiRoutes) with the modules whose providers they take: identity's sign-in half,
 * the command features (and their registry), OAuth's runtime. Nothing is looked up in the application.
 */
@Module({})
export class ApiRoutesModule {
  static forRoot(options: ApiRoutesOptions): DynamicModule {
    return {
      module: ApiRoutesModule,
      imports: [IdentityAuthModule.forRoot(options.identity), CommandFeaturesModule, OAuthCredentialsModule],
      providers: [{ provide: API_COMMANDS, useValue: options.commands }, ApiRoutes],
    };
  }
}
