import { Module } from '@nestjs/common';
import { CheckAdmissionUseCase } from './check-admission.use-case';

/** Admission commands: the decision a worker would get before a lease. */
@Module({
  providers: [
    CheckAdmissionUseCase,
  ],
})
export class AdmissionModule {}
