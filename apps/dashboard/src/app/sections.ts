/** The dashboard's areas. Each is a placeholder until the issue that builds it lands. */
export type DashboardSection = {
  slug: string;
  title: string;
  summary: string;
};

export const dashboardSections: readonly DashboardSection[] = [
  {
    slug: 'servers',
    title: 'Servers',
    summary: 'MCP server definitions per tier, resolved for a workspace.',
  },
  {
    slug: 'approvals',
    title: 'Approvals',
    summary: 'Pending activations to approve or deny, and past decisions.',
  },
  {
    slug: 'connections',
    title: 'Connections',
    summary: 'Leases, supervised upstream connections and OAuth sign-ins.',
  },
  {
    slug: 'catalog',
    title: 'Catalog',
    summary: 'The admitted tools, prompts and resources of each workspace.',
  },
  { slug: 'audit', title: 'Audit', summary: 'The hash-chained audit log of every change and decision.' },
];

export function findDashboardSection(slug: string): DashboardSection | undefined {
  return dashboardSections.find((section) => section.slug === slug);
}
