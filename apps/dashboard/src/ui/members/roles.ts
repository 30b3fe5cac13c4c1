export const ROLE_OPTIONS = [
  { value: 'member', label: 'Member' },
  { value: 'approver', label: 'Approver' },
  { value: 'admin', label: 'Admin' },
  { value: 'owner', label: 'Owner' },
] as const;

export const ROLE_SUMMARIES: Readonly<Record<string, string>> = {
  owner: 'Everything, including granting and removing the owner role.',
  admin: 'Manages workspaces, members, tokens; reads the audit log; approves.',
  approver: 'Approves or denies server activations; reads members and the audit log.',
  member: 'Uses the workspaces and their tools; sees their own tokens.',
};
