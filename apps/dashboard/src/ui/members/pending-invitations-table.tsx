import { revokeInvitationAction } from '@/server/actions/invitation.actions';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge } from '@/ui/feedback';
import type { InvitationView } from '@/views/invitation-views';

// The tenant's invitations not yet accepted, with revoke.
export function PendingInvitationsTable({ invitations }: { invitations: readonly InvitationView[] }) {
  return (
    <DataTable
      caption="Pending invitations"
      columns={[
        { id: 'email', label: 'Email', sortable: true },
        { id: 'role', label: 'Role', sortable: true },
        { id: 'sent', label: 'Sent', sortable: true },
        { id: 'expires', label: 'Expires', sortable: true },
        { id: 'actions', label: 'Actions', hideLabel: true },
      ]}
      initialSort={{ column: 'sent', direction: 'descending' }}
      rows={invitations.map((invitation) => ({
        id: invitation.id,
        cells: [
          invitation.email,
          <Badge key="r" tone="accent">
            {invitation.role}
          </Badge>,
          <DateTime key="s" value={invitation.createdAt} />,
          <DateTime key="e" value={invitation.expiresAt} />,
          <ConfirmAction
            key="x"
            trigger="Revoke"
            triggerVariant="dangerOutline"
            title={`Revoke the invitation of ${invitation.email}?`}
            description={<p>Its link stops working at once. You can invite the address again later.</p>}
            confirmLabel="Revoke invitation"
            confirmVariant="danger"
            action={revokeInvitationAction}
            fields={{ invitationId: invitation.id }}
          />,
        ],
        sort: [invitation.email, invitation.role, invitation.createdAt, invitation.expiresAt, null],
        search: `${invitation.email} ${invitation.role}`,
      }))}
    />
  );
}
