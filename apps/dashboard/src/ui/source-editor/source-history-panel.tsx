import type { ApiResult } from '@/server/api-client';
import type { SourceVersionList, SourceVersionView } from '@/server/source-history-queries';
import { Panel, ProblemCallout } from '@/ui/feedback';
import { SourceHistory } from './source-history';

// The stored source's versions with the one asked for opened, or why either could not be read.
export function SourceHistoryPanel({
  versions,
  shownVersion,
  hrefFor,
}: {
  versions: ApiResult<SourceVersionList> | undefined;
  shownVersion: ApiResult<SourceVersionView> | undefined;
  hrefFor: (version: number) => string;
}) {
  return (
    <>
      {versions?.ok ? (
        <Panel
          id="history"
          title="History"
          description="Each saved version, newest first; open one to see what changed since the one before."
        >
          <SourceHistory
            versions={versions.data}
            shown={shownVersion?.ok ? shownVersion.data : null}
            hrefFor={hrefFor}
          />
        </Panel>
      ) : null}
      {versions && !versions.ok ? (
        <ProblemCallout problem={versions.problem} context="The source's history could not be read" />
      ) : null}
      {shownVersion && !shownVersion.ok ? (
        <ProblemCallout problem={shownVersion.problem} context="That version could not be read" />
      ) : null}
    </>
  );
}
