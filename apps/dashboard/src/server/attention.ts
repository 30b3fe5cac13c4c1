import type { AuditVerificationView, TokenView, WorkspaceView } from '../views/api-views';
import type { ApprovalRequestView } from '../views/approval-views';
import { CATALOG_TROUBLE_WORDS, discoveryFailureText, type ServerInTrouble } from './catalog-trouble';

// The overview's "needs attention" list. Each source looks at data the overview already loaded and returns
// items; later issues add their own sources (failing connections, stale catalogs) here.

export interface AttentionItem {
  readonly id: string;
  readonly tone: 'warning' | 'info';
  readonly title: string;
  readonly detail: string;
  readonly href: string;
  readonly linkLabel: string;
}

export interface AttentionInputs {
  readonly now: Date;
  readonly verification?: AuditVerificationView | undefined;
  readonly tokens?: readonly TokenView[] | undefined;
  readonly workspaces?: readonly WorkspaceView[] | undefined;
  /** Open approval requests (first page), for those who may decide them. */
  readonly openRequests?:
    { readonly items: readonly ApprovalRequestView[]; readonly more: boolean } | undefined;
  /** Approved servers whose catalog is not what agents should get (catalog-trouble.ts), per workspace read. */
  readonly troubledServers?:
    | readonly { readonly workspace: WorkspaceView; readonly servers: readonly ServerInTrouble[] }[]
    | undefined;
}

type AttentionSource = (inputs: AttentionInputs) => AttentionItem[];

const EXPIRY_WINDOW_MS = 7 * 24 * 3600 * 1000;

const brokenAuditChain: AttentionSource = ({ verification }) =>
  verification && !verification.ok
    ? [
        {
          id: 'audit-chain',
          tone: 'warning',
          title: 'The audit chain does not verify',
          detail: `Row #${verification.firstBadSeq ?? '?'} fails (${verification.problem ?? 'unknown'}): audit rows were changed or removed outside Gatehouse.`,
          href: '/audit',
          linkLabel: 'Open the audit log',
        },
      ]
    : [];

const expiringTokens: AttentionSource = ({ tokens, now }) => {
  const soon = (tokens ?? []).filter((token) => {
    if (token.revokedAt !== null || token.expiresAt === null) return false;
    const left = new Date(token.expiresAt).getTime() - now.getTime();
    return left > 0 && left <= EXPIRY_WINDOW_MS;
  });
  return soon.length === 0
    ? []
    : [
        {
          id: 'tokens-expiring',
          tone: 'warning',
          title: `${soon.length} API ${soon.length === 1 ? 'token expires' : 'tokens expire'} within 7 days`,
          detail: soon.map((token) => token.name).join(', '),
          href: '/tokens',
          linkLabel: 'Review tokens',
        },
      ];
};

const untrustedWorkspaces: AttentionSource = ({ workspaces }) => {
  const untrusted = (workspaces ?? []).filter((workspace) => !workspace.trusted);
  return untrusted.length === 0
    ? []
    : [
        {
          id: 'workspaces-untrusted',
          tone: 'info',
          title: `${untrusted.length} ${untrusted.length === 1 ? 'workspace is' : 'workspaces are'} untrusted`,
          detail: 'Project, local and plugin server definitions are refused in an untrusted workspace.',
          href: '/workspaces',
          linkLabel: 'Review workspaces',
        },
      ];
};

const pendingApprovals: AttentionSource = ({ openRequests }) => {
  if (openRequests === undefined || openRequests.items.length === 0) return [];
  const count = `${openRequests.items.length}${openRequests.more ? '+' : ''}`;
  const servers = [...new Set(openRequests.items.map((request) => request.identity.serverName))];
  return [
    {
      id: 'approvals-pending',
      tone: 'warning',
      title: `${count} approval ${openRequests.items.length === 1 && !openRequests.more ? 'request waits' : 'requests wait'} for review`,
      detail: `Servers: ${servers.slice(0, 5).join(', ')}${servers.length > 5 ? ', …' : ''}. They do not run until approved.`,
      href: '/approvals',
      linkLabel: 'Open the queue',
    },
  ];
};

const serversInTrouble: AttentionSource = ({ troubledServers }) =>
  (troubledServers ?? []).flatMap(({ workspace, servers }) =>
    servers.map((server) => {
      const worst = server.troubles[0];
      return {
        id: `catalog-${workspace.id}-${server.serverName}`,
        tone: worst === 'pending_discovery' ? ('info' as const) : ('warning' as const),
        title: `${server.serverName} in ${workspace.name}: ${server.troubles.map((trouble) => CATALOG_TROUBLE_WORDS[trouble].label.toLowerCase()).join(', ')}`,
        detail:
          server.discoveryFailure !== undefined
            ? `Why: ${discoveryFailureText(server.discoveryFailure)}.`
            : worst === undefined
              ? ''
              : CATALOG_TROUBLE_WORDS[worst].detail,
        href: `/servers/${workspace.id}/server/${encodeURIComponent(server.serverName)}?view=principal#server-catalog`,
        linkLabel: `Open ${server.serverName}`,
      };
    }),
  );

export const ATTENTION_SOURCES: readonly AttentionSource[] = [
  brokenAuditChain,
  pendingApprovals,
  serversInTrouble,
  expiringTokens,
  untrustedWorkspaces,
];

export function collectAttention(inputs: AttentionInputs): AttentionItem[] {
  return ATTENTION_SOURCES.flatMap((source) => source(inputs));
}
