import { Panel } from '@/ui/feedback';
import type { EffectiveEntryView } from '@/views/definition-views';
import type { ReviewTarget } from './activation-agreement';
import { ActivationDetails } from './activation-details';

// A server's approval state, with the way to its review.
export function ServerApprovalPanel({ entry, target }: { entry: EffectiveEntryView; target: ReviewTarget }) {
  return (
    <Panel
      id="server-approval"
      title="Approval"
      description="It runs only while an approval holds for exactly this definition, source, repository and generation."
    >
      <ActivationDetails entry={entry} target={target} />
    </Panel>
  );
}
