import { Module } from '@nestjs/common';
import { CheckAdmissionUseCase } from './check-admission.use-case';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/** Admission commands: the decision a worker would get before a lease. */
@Module({
  imports: [EffectiveViewModule],
  providers: [CheckAdmissionUseCase],
})
export class AdmissionModule {}
