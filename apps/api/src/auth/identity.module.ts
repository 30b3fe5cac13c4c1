import { Module } from '@nestjs/common';
import { GetMeUseCase } from './get-me.use-case';

/** Identity commands: who the caller is. */
@Module({
  providers: [
    GetMeUseCase,
  ],
})
export class IdentityModule {}
