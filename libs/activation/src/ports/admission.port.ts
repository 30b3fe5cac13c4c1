import type { ActivationDecision } from '../activation.decision';
import type { ActivationView } from '../activation.types';

export interface AdmissionQuery {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly serverName: string;
  readonly view: ActivationView;
}

/** `unknown_server`: the view lists no server of that name (nothing to admit). */
export type AdmissionAnswer =
  { readonly kind: 'decided'; readonly decision: ActivationDecision } | { readonly kind: 'unknown_server' };

/**
 * The host-injected admission decision: whoever holds the sources, workspace state and approvals (the API)
 * resolves the entry and answers with `decideActivation`. Activation policy is transport-neutral: the same
 * answer governs a lease for HTTP or stdio. A caller that gets no answer treats the entry as pending.
 */
export interface AdmissionPort {
  decide(query: AdmissionQuery): Promise<AdmissionAnswer>;
}
