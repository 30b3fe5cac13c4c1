import type { Metadata } from 'next';
import { listMembers } from '@/server/api-queries';
import { removeMemberAction } from '@/server/actions/member.actions';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { listPendingInvitations } from '@/server/invitation-queries';
import { AccessFailure } from '@/ui/access-states';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable, type TableColumn } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import { InviteMemberForm } from '@/ui/members/invite-member-form';
import { MemberRoleForm } from '@/ui/members/member-role-form';
import { PendingInvitationsTable } from '@/ui/members/pending-invitations-table';
import { ROLE_SUMMARIES } from '@/ui/members/roles';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';

export const metadata: Metadata = { title: 'Members' };

// Next.js requires a page as the module's default export.
export default async function MembersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readMembers');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can, session } = access;
  const params = await searchParams;
  const current = readPageCursor(params);
  const pageSize = readPageSize(params);
  const result = await listMembers({ cursor: current.cursor, limit: pageSize });
  if (!result.ok) redirectIfSessionEnded(result.problem);
  // Pending invitations: the first 200 (newest first) is plenty for a page that also lists members.
  const invitations = can.manageMembers ? await listPendingInvitations({ limit: 200 }) : null;

  const columns: TableColumn[] = [
    { id: 'name', label: 'Name', sortable: true },
    { id: 'email', label: 'Email', sortable: true },
    { id: 'role', label: 'Role', sortable: true },
    { id: 'joined', label: 'Joined', sortable: true },
    ...(can.manageMembers ? [{ id: 'actions', label: 'Actions', hideLabel: true }] : []),
  ];

  return (
    <div className="stack">
      <PageHeader
        title="Members"
        description="People with a role in this tenant. Roles decide what each person may do; API tokens never exceed their creator’s role."
      />
      {can.manageMembers ? (
        <Panel
          id="invite-member"
          title="Invite someone"
          description="They join when they open the link signed in as that address, or create their account through it. Nothing here tells whether the address has an account."
        >
          <InviteMemberForm />
        </Panel>
      ) : null}
      {invitations === null ? null : !invitations.ok ? (
        <ProblemCallout problem={invitations.problem} context="Invitations could not be loaded" />
      ) : invitations.data.items.length === 0 ? null : (
        <PendingInvitationsTable invitations={invitations.data.items} />
      )}
      {!result.ok ? (
        <ProblemCallout problem={result.problem} context="Members could not be loaded" />
      ) : result.data.items.length === 0 ? (
        <EmptyState title="No members">Invite someone above to give them access to this tenant.</EmptyState>
      ) : (
        <DataTable
          caption="Members"
          columns={columns}
          initialSort={{ column: 'name', direction: 'ascending' }}
          rows={result.data.items.map((member) => {
            const isYou = member.userId === session.user.id;
            return {
              id: member.userId,
              cells: [
                <span key="n">
                  {member.displayName}
                  {isYou ? <span className="muted"> (you)</span> : null}
                </span>,
                member.email,
                can.manageMembers ? (
                  <MemberRoleForm
                    key="r"
                    userId={member.userId}
                    role={member.role}
                    name={member.displayName}
                  />
                ) : (
                  <Badge key="r" tone="accent">
                    {member.role}
                  </Badge>
                ),
                <DateTime key="j" value={member.joinedAt} />,
                ...(can.manageMembers
                  ? [
                      <ConfirmAction
                        key="x"
                        trigger="Remove"
                        triggerVariant="dangerOutline"
                        title={`Remove ${member.displayName} from ${session.tenant.name}?`}
                        description={
                          <p>
                            Their sessions and API tokens in this tenant are revoked at once. Their account
                            stays; an admin can invite them again later.
                          </p>
                        }
                        confirmLabel="Remove member"
                        confirmVariant="danger"
                        action={removeMemberAction}
                        fields={{ userId: member.userId }}
                      />,
                    ]
                  : []),
              ],
              sort: [member.displayName, member.email, member.role, member.joinedAt, null],
              search: `${member.displayName} ${member.email} ${member.role}`,
            };
          })}
          footer={
            <Pager
              path="/members"
              current={current}
              pageSize={pageSize}
              nextCursor={result.data.nextCursor}
              label="Member pages"
            />
          }
        />
      )}
      <Panel id="roles" title="Roles" headingLevel={2}>
        <ul>
          {Object.entries(ROLE_SUMMARIES).map(([role, summary]) => (
            <li key={role}>
              <strong>{role}</strong>: {summary}
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
