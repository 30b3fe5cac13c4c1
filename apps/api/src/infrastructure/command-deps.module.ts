import { createDnsResolver, type Resolver } from '@gatehouse/egress';
import { Module, type DynamicModule } from '@nestjs/common';
import { SILENT_ADMISSION_LOG, type AdmissionLog } from '../admission/admission-log.js';
import type { CheckAdmissionDeps } from '../admission/admission-deps.js';
import type { WorkerPools } from '../auth/pool-config.js';
import { DefinitionCipher } from '../effective-view/definition-cipher.js';
import {
  AUDIT_VERIFY_BATCH_SIZE,
  CHECK_ADMISSION_DEPS,
  CLOCK,
  DEFAULT_AUDIT_VERIFY_BATCH_SIZE,
  WORKER_POOLS,
  type Clock,
} from './command-deps-tokens.js';

/** What the command use cases need besides the database: built once at boot from the operator's config. */
export interface CommandDeps {
  /** The operator's WORKER_POOLS (identity config): which pools a worker token may name. */
  readonly workerPools: WorkerPools;
  /** Seals definition documents and variable values (createDefinitionCipher: the operator's key ring). */
  readonly definitionCipher: DefinitionCipher;
  /** URL admission's resolver and the operator's log of refused destinations (admission.check). */
  readonly admission: CheckAdmissionDeps;
  readonly clock: Clock;
}

export interface CommandDepsOptions {
  readonly workerPools: WorkerPools;
  /** Without one, the definition commands fail as a wiring bug when they would encrypt or decrypt. */
  readonly definitionCipher?: DefinitionCipher;
  /** By default the bounded c-ares resolver, as in production. */
  readonly egressResolver?: Resolver;
  /** createApiApp wires the API logger; tests may leave it out. */
  readonly admissionLog?: AdmissionLog;
  /** By default the system clock. */
  readonly clock?: Clock;
}

export function commandDepsOf(options: CommandDepsOptions): CommandDeps {
  return {
    workerPools: options.workerPools,
    definitionCipher: options.definitionCipher ?? new DefinitionCipher(undefined),
    admission: {
      resolver: options.egressResolver ?? createDnsResolver(),
      log: options.admissionLog ?? SILENT_ADMISSION_LOG,
    },
    clock: options.clock ?? (() => new Date()),
  };
}

/** Provides CommandDeps as values to every feature module (global, like the infrastructure). */
@Module({})
export class CommandDepsModule {
  static forRoot(deps: CommandDeps): DynamicModule {
    return {
      module: CommandDepsModule,
      global: true,
      providers: [
        { provide: WORKER_POOLS, useValue: deps.workerPools },
        { provide: DefinitionCipher, useValue: deps.definitionCipher },
        { provide: CHECK_ADMISSION_DEPS, useValue: deps.admission },
        { provide: CLOCK, useValue: deps.clock },
        { provide: AUDIT_VERIFY_BATCH_SIZE, useValue: DEFAULT_AUDIT_VERIFY_BATCH_SIZE },
      ],
      exports: [WORKER_POOLS, DefinitionCipher, CHECK_ADMISSION_DEPS, CLOCK, AUDIT_VERIFY_BATCH_SIZE],
    };
  }
}
