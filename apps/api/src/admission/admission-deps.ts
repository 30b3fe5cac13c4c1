import type { Resolver } from '@gatehouse/egress';
import type { AdmissionLog } from './admission-log';

/** What judging a destination needs besides the view: every feature that admits one is given the same. */
export interface CheckAdmissionDeps {
  /** DNS for URL admission: the bounded c-ares resolver (createDnsResolver) in production, a fixed table in tests. */
  readonly resolver: Resolver;
  /** The operator's log: the only place a destination refusal's detailed class is written. */
  readonly log: AdmissionLog;
}
