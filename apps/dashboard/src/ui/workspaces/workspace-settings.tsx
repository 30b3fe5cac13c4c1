import { bumpWorkspaceGenerationAction, setWorkspaceTrustAction } from '@/server/actions/workspace.actions';
import { ConfirmAction } from '@/ui/confirm-action';
import { Panel } from '@/ui/feedback';
import type { WorkspaceView } from '@/views/api-views';
import { RenameWorkspaceForm } from './rename-workspace-form';

// For owners and admins: rename the workspace, mark it trusted or untrusted, start a new generation.
export function WorkspaceSettings({ ws }: { ws: WorkspaceView }) {
  return (
    <Panel id="workspace-settings" title="Settings" description="Changes are recorded in the audit log.">
      <div className="stack">
        <RenameWorkspaceForm workspaceId={ws.id} name={ws.name} />
        <div className="stack-sm">
          <h3>Trust</h3>
          <p className="muted">
            {ws.trusted
              ? 'Trusted: server definitions from the repository itself (project, local and plugin sources) are considered, each still needing approval.'
              : 'Untrusted: only managed definitions apply here; project, local and plugin sources are refused.'}
          </p>
          <div>
            <ConfirmAction
              trigger={ws.trusted ? 'Mark as untrusted' : 'Mark as trusted'}
              triggerVariant={ws.trusted ? 'dangerOutline' : 'secondary'}
              title={ws.trusted ? `Mark ${ws.name} as untrusted?` : `Mark ${ws.name} as trusted?`}
              description={
                ws.trusted ? (
                  <>
                    <p>Marking the workspace untrusted:</p>
                    <ul>
                      <li>refuses its project, local and plugin server definitions from now on;</li>
                      <li>ends the leases and connections that depend on them within a second;</li>
                      <li>keeps managed (tenant-wide) definitions working.</li>
                    </ul>
                  </>
                ) : (
                  <>
                    <p>Marking the workspace trusted:</p>
                    <ul>
                      <li>
                        lets the repository’s own project, local and plugin server definitions be considered;
                      </li>
                      <li>does not approve any of them: each still needs an approver’s decision.</li>
                    </ul>
                    <p>Only do this for a repository whose contents you have checked.</p>
                  </>
                )
              }
              confirmLabel={ws.trusted ? 'Mark as untrusted' : 'Mark as trusted'}
              confirmVariant={ws.trusted ? 'danger' : 'primary'}
              action={setWorkspaceTrustAction}
              fields={{ workspaceId: ws.id, trusted: ws.trusted ? 'false' : 'true' }}
            />
          </div>
        </div>
        <div className="stack-sm">
          <h3>Generation</h3>
          <p className="muted">
            Approvals are bound to a generation. Start a new one when the repository changed hands or its
            server definitions need a fresh review.
          </p>
          <div>
            <ConfirmAction
              trigger="Start a new generation"
              triggerVariant="dangerOutline"
              title={`Start generation ${ws.generation + 1} of ${ws.name}?`}
              description={
                <>
                  <p>
                    Every approval bound to generation {ws.generation} becomes stale at once: the servers they
                    admitted stop until an approver approves them again for generation {ws.generation + 1}.
                  </p>
                  <p>This cannot be undone.</p>
                </>
              }
              confirmLabel={`Start generation ${ws.generation + 1}`}
              confirmVariant="danger"
              action={bumpWorkspaceGenerationAction}
              fields={{ workspaceId: ws.id, expectedGeneration: String(ws.generation) }}
            />
          </div>
        </div>
      </div>
    </Panel>
  );
}
