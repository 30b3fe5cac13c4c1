import { Panel } from '@/ui/feedback';
import type { EffectiveEntryView } from '@/views/definition-views';
import { ServerOverlayControl } from './overlay-forms';

function disabledByOf(entry: EffectiveEntryView): 'workspace' | 'user' | null {
  if (entry.reason === 'disabled_by_workspace') return 'workspace';
  if (entry.reason === 'disabled_by_user') return 'user';
  return null;
}

// Disabling one server for the workspace or for oneself, and enabling it again.
export function ServerOverlayPanel({
  entry,
  workspaceId,
  workspaceScope,
}: {
  entry: EffectiveEntryView;
  workspaceId: string;
  /** Whether the person may disable it for the whole workspace. */
  workspaceScope: boolean;
}) {
  return (
    <Panel
      id="server-overlay"
      title="Disable"
      description="A disabled server stays listed with its reason; enabling it gives back the identical entry."
    >
      <ServerOverlayControl
        workspaceId={workspaceId}
        serverName={entry.name}
        workspaceScope={workspaceScope}
        disabledBy={disabledByOf(entry)}
      />
    </Panel>
  );
}
