import { randomUUID } from 'node:crypto';
import { REVOCATION_KINDS, revocationEvent } from './revocation-event.schema.js';

function event(kind: string) {
  return {
    seq: 1,
    tenantId: randomUUID(),
    kind,
    subject: { workspaceId: randomUUID() },
    occurredAt: new Date().toISOString(),
  };
}

describe('revocationEvent kinds (decision 0095)', () => {
  it('reads every declared kind', () => {
    for (const kind of REVOCATION_KINDS) expect(revocationEvent.safeParse(event(kind)).success).toBe(true);
  });

  it('has no approval_stale: the write that makes an approval stale writes its own kind', () => {
    expect(REVOCATION_KINDS).not.toContain('approval_stale');
    // A row carrying it anyway is unreadable, which makes a holder revalidate everything it holds.
    expect(revocationEvent.safeParse(event('approval_stale')).success).toBe(false);
  });
});
