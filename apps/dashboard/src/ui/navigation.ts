import type { Capability } from '../server/capabilities';

// The dashboard's areas. The shell lists them; later issues turn a "coming soon" entry into a real page by
// changing its status, so the layout already has room for Connections, Catalog and Gateway.

export interface NavItem {
  readonly href: string;
  readonly label: string;
  readonly summary: string;
  /** Hidden from people without it (the page itself checks again on the server). */
  readonly needs?: Capability;
  readonly status: 'ready' | 'coming-soon';
  /**
   * `review`: listed first, under Review (what the product is for: servers and the approvals they wait for);
   * `settings`: under Settings (tenant-wide configuration); otherwise under Manage.
   */
  readonly group?: 'review' | 'settings';
}

export const NAV_ITEMS: readonly NavItem[] = [
  {
    href: '/servers',
    label: 'Servers',
    summary: 'MCP server definitions per tier, resolved for a workspace.',
    needs: 'readWorkspaces',
    status: 'ready',
    group: 'review',
  },
  {
    href: '/approvals',
    label: 'Approvals',
    summary: 'Pending activations to approve or deny, and past decisions.',
    needs: 'readApprovals',
    status: 'ready',
    group: 'review',
  },
  {
    href: '/overview',
    label: 'Overview',
    summary: 'Counts, recent activity and what needs attention.',
    status: 'ready',
  },
  {
    href: '/workspaces',
    label: 'Workspaces',
    summary: 'Repositories and projects that servers are approved for.',
    needs: 'readWorkspaces',
    status: 'ready',
  },
  {
    href: '/members',
    label: 'Members',
    summary: 'People in this tenant and their roles.',
    needs: 'readMembers',
    status: 'ready',
  },
  {
    href: '/tokens',
    label: 'API tokens',
    summary: 'Credentials for scripts, agents and workers.',
    needs: 'readTokens',
    status: 'ready',
  },
  {
    href: '/audit',
    label: 'Audit log',
    summary: 'The hash-chained record of every change.',
    needs: 'readAudit',
    status: 'ready',
  },
  {
    href: '/settings/host-policy',
    label: 'Host policy',
    summary: 'What this tenant lets worker pools run, within the operator’s ceiling.',
    needs: 'manageHostPolicy',
    status: 'ready',
    group: 'settings',
  },
  {
    href: '/connections',
    label: 'Connections',
    summary: 'Your OAuth sign-ins to servers, per workspace.',
    needs: 'readWorkspaces',
    status: 'ready',
  },
  {
    href: '/catalog',
    label: 'Catalog',
    summary: 'The admitted tools, prompts and resources of each workspace.',
    needs: 'readCatalog',
    status: 'ready',
  },
  {
    href: '/gateway',
    label: 'Gateway',
    summary: 'The MCP endpoint of each workspace and how to point a client at it.',
    needs: 'readWorkspaces',
    status: 'ready',
  },
];

export function findComingSoon(slug: string): NavItem | undefined {
  return NAV_ITEMS.find((item) => item.status === 'coming-soon' && item.href === `/${slug}`);
}
