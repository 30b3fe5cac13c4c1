import type { AuditEventView } from '../views/api-views';
import { concernsWorkspace } from './workspace-activity';

const workspaceId = '0b7a3c4e-1111-4222-8333-444455556666';
const other = '9f8e7d6c-aaaa-4bbb-8ccc-ddddeeeeffff';

function event(fields: Partial<AuditEventView>): AuditEventView {
  return {
    id: 'e',
    seq: 1,
    occurredAt: '2026-12-01T00:00:00.000Z',
    actorType: 'user',
    actorId: null,
    tokenKind: null,
    action: 'x',
    targetType: 'tenant',
    targetId: null,
    outcome: 'success',
    data: {},
    hash: '0'.repeat(64),
    ...fields,
  };
}

describe('concernsWorkspace', () => {
  it('takes events on the workspace and on what lives in it', () => {
    expect(concernsWorkspace(event({ targetType: 'workspace', targetId: workspaceId }), workspaceId)).toBe(
      true,
    );
    expect(
      concernsWorkspace(
        event({ targetType: 'definition_source', data: { origin: `project:${workspaceId}` } }),
        workspaceId,
      ),
    ).toBe(true);
    expect(
      concernsWorkspace(
        event({ targetType: 'definition_source', data: { origin: `local:${workspaceId}:${other}` } }),
        workspaceId,
      ),
    ).toBe(true);
    expect(
      concernsWorkspace(event({ targetType: 'approval_request', data: { workspaceId } }), workspaceId),
    ).toBe(true);
  });

  it('leaves out other workspaces and tenant-wide events', () => {
    expect(concernsWorkspace(event({ targetType: 'workspace', targetId: other }), workspaceId)).toBe(false);
    expect(
      concernsWorkspace(
        event({ targetType: 'definition_source', data: { origin: `project:${other}` } }),
        workspaceId,
      ),
    ).toBe(false);
    expect(concernsWorkspace(event({ data: { origin: 'managed:org-policy' } }), workspaceId)).toBe(false);
    expect(concernsWorkspace(event({ data: { workspaceId: other } }), workspaceId)).toBe(false);
  });
});
