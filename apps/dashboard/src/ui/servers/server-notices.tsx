import { Callout } from '@/ui/feedback';
import type { EffectiveEntryView } from '@/views/definition-views';
import { describeProblem, problemPath } from './definition-labels';
import { EntryReason } from './server-parts';

// Above a server's page: why it is disabled, and the problems its entry has.
export function ServerNotices({ entry }: { entry: EffectiveEntryView }) {
  return (
    <>
      {entry.status === 'disabled' ? (
        <Callout tone="info" title="Disabled">
          <p>
            <EntryReason entry={entry} />
          </p>
        </Callout>
      ) : null}
      {entry.problems.filter((problem) => problem['reason'] !== 'disabled_entry').length > 0 ? (
        <Callout tone="warning" title="Problems">
          <ul>
            {entry.problems
              .filter((problem) => problem['reason'] !== 'disabled_entry')
              .map((problem, index) => (
                <li key={index}>
                  {problemPath(problem) ? <code>{problemPath(problem)}</code> : null}{' '}
                  {describeProblem(problem)}
                </li>
              ))}
          </ul>
        </Callout>
      ) : null}
    </>
  );
}
