'use client';

import { ProblemCallout } from '@/ui/feedback';
import { Button } from '@/ui/button';
import { PageHeader } from '@/ui/page-header';

// Unexpected errors while rendering a page (expected ones — API down, refusals — are rendered by the pages
// themselves with the API's code). In production Next.js passes only a digest, which matches the server log.
// Next.js requires an error boundary as the module's default export.
export default function ConsoleError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest =
    error instanceof Error && 'digest' in error ? String((error as { digest?: unknown }).digest) : undefined;
  return (
    <div className="stack">
      <PageHeader title="Something went wrong" />
      <ProblemCallout
        problem={{
          code: 'dashboard_error',
          title: 'This page failed to render',
          status: null,
          detail: digest
            ? `Reference ${digest} (in the dashboard’s server log).`
            : 'See the dashboard’s server log.',
          errors: [],
          tenants: [],
        }}
      />
      <div>
        <Button variant="primary" onClick={() => retry()}>
          Try again
        </Button>
      </div>
    </div>
  );
}
