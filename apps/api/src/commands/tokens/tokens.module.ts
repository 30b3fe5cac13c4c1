import { Module } from '@nestjs/common';
import { ListTokensUseCase } from './list-tokens.use-case';
import { CreateTokenUseCase } from './create-token.use-case';
import { RevokeTokenUseCase } from './revoke-token.use-case';

/** API token commands: list, create (the secret shown once), revoke. */
@Module({
  providers: [
    ListTokensUseCase,
    CreateTokenUseCase,
    RevokeTokenUseCase,
  ],
})
export class TokensModule {}
