import { Module } from '@nestjs/common';
import { ChooseServiceCredentialUseCase } from './choose-service-credential.use-case';
import { CompleteOAuthSignInUseCase } from './complete-oauth-sign-in.use-case';
import { ListOAuthCredentialsUseCase } from './list-oauth-credentials.use-case';
import { ListServiceCredentialsUseCase } from './list-service-credentials.use-case';
import { SignOutOAuthUseCase } from './sign-out-oauth.use-case';
import { SignOutServiceCredentialUseCase } from './sign-out-service-credential.use-case';
import { StartOAuthSignInUseCase } from './start-oauth-sign-in.use-case';
import { EffectiveViewModule } from '../effective-view/effective-view.module';
import { OAuthCredentialsModule } from '../oauth-credentials/oauth-credentials.module';

/** Upstream OAuth sign-in (decision 0062): the commands and what they are built with. */
@Module({
  imports: [EffectiveViewModule, OAuthCredentialsModule],
  providers: [
    StartOAuthSignInUseCase,
    CompleteOAuthSignInUseCase,
    ListOAuthCredentialsUseCase,
    SignOutOAuthUseCase,
    ChooseServiceCredentialUseCase,
    ListServiceCredentialsUseCase,
    SignOutServiceCredentialUseCase,
  ],
})
export class OAuthModule {}
