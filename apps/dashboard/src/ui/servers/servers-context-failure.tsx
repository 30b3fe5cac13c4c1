import { notFound } from 'next/navigation';
import type { ServersPageContext } from '@/server/servers-page-context';
import { AccessFailure, PageProblem } from '../access-states';

/**
 * What a page of one workspace's Servers section shows when its context is not ready: the access page, a 404 for
 * an unknown workspace (notFound throws to Next's not-found page), or the problem under the page's own title.
 */
export function ServersContextFailure({
  context,
  title,
}: {
  context: Exclude<ServersPageContext, { kind: 'ready' }>;
  title: string;
}) {
  if (context.kind === 'access') return <AccessFailure access={context.access} />;
  if (context.kind === 'missing') notFound();
  return <PageProblem problem={context.problem} title={title} />;
}
