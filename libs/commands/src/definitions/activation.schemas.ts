import { ACTIVATION_REASONS, ACTIVATION_STATES, STALE_FIELDS } from '@gatehouse/activation';
import { z } from 'zod';
import { isoDateTime, uuid } from '../common.schemas';

/** The activation state of one effective entry (libs/activation decideActivation), as the Servers page shows it. */
export const activationView = z
  .object({
    state: z.enum(ACTIVATION_STATES),
    reasons: z.array(z.enum(ACTIVATION_REASONS)),
    /** The approval, denial or revoked approval the state rests on; for `stale`, the last approval. */
    approvalId: uuid.nullable(),
    expiresAt: isoDateTime.nullable(),
    /** For `stale`: which parts of the identity changed since that approval. */
    staleBecause: z.array(z.enum(STALE_FIELDS)),
    /** The open request for the entry's current identity, if any. */
    openRequestId: uuid.nullable(),
  })
  .meta({ title: 'Activation' });
