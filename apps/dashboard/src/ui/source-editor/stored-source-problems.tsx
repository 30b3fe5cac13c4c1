import type { ApiResult } from '@/server/api-client';
import { Callout, ProblemCallout } from '@/ui/feedback';
import { describeProblem, problemPath } from '@/ui/servers/definition-labels';
import type { DefinitionSourceView } from '@/views/definition-views';

// What is wrong with the stored source, before the editor: it could not be read, or entries of it do not decode.
export function StoredSourceProblems({ stored }: { stored: ApiResult<DefinitionSourceView> | undefined }) {
  return (
    <>
      {stored && !stored.ok ? (
        <ProblemCallout problem={stored.problem} context="The stored source could not be read" />
      ) : null}
      {stored?.ok && stored.data.problems.length > 0 ? (
        <Callout tone="warning" title={`Problems of the stored source (version ${stored.data.version})`}>
          <ul>
            {stored.data.problems.map((problem, index) => (
              <li key={index}>
                {problemPath(problem) ? <code>{problemPath(problem)}</code> : null} {describeProblem(problem)}
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
    </>
  );
}
