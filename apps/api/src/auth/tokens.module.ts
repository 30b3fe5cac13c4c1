import { Module } from '@nestjs/common';
import { CreateTokenUseCase } from './create-token.use-case';
import { IntrospectTokenUseCase } from './introspect-token.use-case';
import { ListTokensUseCase } from './list-tokens.use-case';
import { RevokeTokenUseCase } from './revoke-token.use-case';

/** API token commands: list, create (the secret shown once), revoke, and the gateway's introspection. */
@Module({
  providers: [ListTokensUseCase, CreateTokenUseCase, RevokeTokenUseCase, IntrospectTokenUseCase],
})
export class TokensModule {}
