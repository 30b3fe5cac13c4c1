import Link from 'next/link';
import type { ApprovalsPageContext } from '@/server/approvals-page-context';
import { Panel } from '@/ui/feedback';
import { LongValue } from '@/ui/long-value';
import overviewStyles from '@/ui/overview.module.css';
import { SourceLabel } from '@/ui/servers/server-parts';
import type { ApprovalRequestView } from '@/views/approval-views';
import { RequestAuthors, RequestSubject } from './request-people';
import { originInWords } from './review-model';

// Every field of the identity a decision binds to: the decision holds only while all of them match.
export function RequestIdentity({
  request,
  context,
  workspaceName,
}: {
  request: ApprovalRequestView;
  context: ApprovalsPageContext;
  workspaceName: string;
}) {
  const { identity } = request;
  return (
    <Panel
      id="request-identity"
      title="Identity"
      description="A decision holds only while every field matches."
    >
      <dl className={overviewStyles.definition}>
        <dt>Source</dt>
        <dd>
          <SourceLabel source={identity.source} name={originInWords(identity.source, context.names)} />
        </dd>
        <dt>Workspace</dt>
        <dd>
          <Link href={`/workspaces/${request.workspaceId}`}>{workspaceName}</Link>
        </dd>
        <dt>For</dt>
        <dd>
          <RequestSubject request={request} directory={context.directory} />
        </dd>
        <dt>Changed by</dt>
        <dd>
          <RequestAuthors request={request} directory={context.directory} />
        </dd>
        <dt>Fingerprint</dt>
        <dd>
          <LongValue value={identity.definitionFingerprint} label="fingerprint" />
        </dd>
        <dt>Security identity</dt>
        <dd>
          <LongValue value={identity.securityIdentity} label="security identity" />
        </dd>
        <dt>Repository</dt>
        <dd>
          {identity.repositoryIdentity !== null ? (
            <code>{identity.repositoryIdentity}</code>
          ) : (
            <span className="muted">Not bound (managed or user source)</span>
          )}
        </dd>
        <dt>Workspace generation</dt>
        <dd>
          {identity.workspaceGeneration !== null ? (
            identity.workspaceGeneration
          ) : (
            <span className="muted">Not bound</span>
          )}
        </dd>
        <dt>Identity key</dt>
        <dd>
          <LongValue value={identity.key} label="identity key" muted />
        </dd>
      </dl>
    </Panel>
  );
}
