import type { ActorDirectory } from '@/ui/audit/audit-labels';
import { LongValue } from '@/ui/long-value';
import overviewStyles from '@/ui/overview.module.css';
import { SourceLabel } from '@/ui/servers/server-parts';
import type { ApprovalRequestView } from '@/views/approval-views';
import { targetOfProjection } from './approval-labels';
import { RequestAuthors, RequestSubject } from './request-people';
import { originInWords, type NameLookup } from './review-model';

// A queued request's facts: its source, whom it is for, who changed it, what it runs and its fingerprint.
export function RequestFacts({
  request,
  directory,
  names,
}: {
  request: ApprovalRequestView;
  directory: ActorDirectory;
  names: NameLookup;
}) {
  const target = targetOfProjection(request.projection);
  return (
    <dl className={overviewStyles.definition}>
      <dt>Source</dt>
      <dd>
        <SourceLabel source={request.identity.source} name={originInWords(request.identity.source, names)} />
      </dd>
      <dt>For</dt>
      <dd>
        <RequestSubject request={request} directory={directory} />
      </dd>
      <dt>Changed by</dt>
      <dd>
        <RequestAuthors request={request} directory={directory} />
      </dd>
      {target !== null ? (
        <>
          <dt>{target.kind === 'stdio' ? 'Runs' : 'Connects to'}</dt>
          <dd>
            <code>{target.target}</code>
          </dd>
        </>
      ) : null}
      <dt>Definition</dt>
      <dd>
        <LongValue value={request.identity.definitionFingerprint} label="fingerprint" truncate />
      </dd>
    </dl>
  );
}
