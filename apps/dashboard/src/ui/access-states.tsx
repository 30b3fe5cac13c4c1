import type { ApiProblem } from '../server/api-problem';
import { CAPABILITY_NEEDS, type Capability } from '../server/capabilities';
import type { PageAccess } from '../server/current-session';
import { ButtonLink } from './button';
import { ProblemCallout } from './feedback';
import { PageHeader } from './page-header';

/** The page a person reaches without the scope for it (by a link or by typing the URL). */
export function NotAllowed({ capability }: { capability: Capability }) {
  return (
    <div className="stack" data-page-state="not-allowed">
      <PageHeader title="Not allowed" description="Your role in this tenant does not include this page." />
      <ProblemCallout
        problem={{
          code: 'forbidden_scope',
          title: 'You do not have access to this page',
          status: 403,
          detail: `${CAPABILITY_NEEDS[capability]} Ask an owner or admin of this tenant if you need it.`,
          errors: [],
          tenants: [],
        }}
      />
      <div>
        <ButtonLink href="/" variant="secondary">
          Back to the overview
        </ButtonLink>
      </div>
    </div>
  );
}

/** A page whose data could not be loaded: what failed, its code, and how to try again. */
export function PageProblem({
  problem,
  title = 'This page could not be loaded',
}: {
  problem: ApiProblem;
  title?: string;
}) {
  return (
    <div className="stack" data-page-state="problem">
      <PageHeader title={title} />
      <ProblemCallout problem={problem} />
      <p className="muted">
        Nothing was changed. Reload the page to try again
        {problem.code === 'api_unreachable' ? ' once the API is back' : ''}.
      </p>
    </div>
  );
}

/** What a page renders when its gate (pageAccess) did not let it through. */
export function AccessFailure({ access }: { access: Exclude<PageAccess, { ok: true }> }) {
  return access.reason === 'not_allowed' ? (
    <NotAllowed capability={access.capability} />
  ) : (
    <PageProblem problem={access.problem} />
  );
}
