import type { BadgeTone } from '../feedback';
import type { DefinitionProblemView, DefinitionTier, EffectiveStatus } from '@/views/definition-views';

// Words for the codes the definitions API reports (statuses, tiers, problem reasons). Pure; the codes stay
// visible next to the words, so a person can search docs and logs for them.

export const STATUS_LABELS: Readonly<Record<EffectiveStatus, { label: string; tone: BadgeTone }>> = {
  resolved: { label: 'Resolved', tone: 'positive' },
  unresolved: { label: 'Unresolved', tone: 'caution' },
  blocked: { label: 'Blocked', tone: 'negative' },
  disabled: { label: 'Disabled', tone: 'neutral' },
  rejected: { label: 'Rejected', tone: 'negative' },
};

export const TIER_LABELS: Readonly<Record<DefinitionTier, { label: string; description: string }>> = {
  managed: {
    label: 'Managed',
    description: 'Tenant-wide policy. Outranks every other tier. Owners and admins.',
  },
  local: { label: 'Local', description: 'Yours alone, in this workspace only.' },
  project: { label: 'Project', description: 'The workspace’s shared source. Admins and its maintainers.' },
  user: { label: 'User', description: 'Yours alone, in every workspace.' },
  plugin: { label: 'Plugin', description: 'Tenant-wide, lowest precedence. Owners and admins.' },
};

export const REASON_LABELS: Readonly<Record<string, string>> = {
  disabled_by_workspace: 'Disabled for everyone in this workspace',
  disabled_by_user: 'Disabled by you, for you',
  malformed: 'The winning entry is malformed',
  unset_variable: 'A variable it needs is not set',
  invalid_value: 'A value is not usable',
  ambiguous_within_tier: 'Two sources of one tier define it',
  managed_source_unreadable: 'A managed source is unreadable, so lower tiers are blocked',
  unsupported_transport: 'Its transport is not supported (sse and ws are refused)',
  invalid_json: 'is not valid JSON',
  root_not_object: 'must be an object: { "mcpServers": { … } }',
  missing_mcp_servers: 'is missing: an empty source says { "mcpServers": {} }',
  mcp_servers_not_object: 'must be an object mapping server names to entries',
  too_many_servers: 'holds more than 200 servers (the most one source may hold)',
  storage_unreadable: 'The stored source could not be read',
  invalid_server_name: 'is not an allowed server name',
  unknown_root_key: 'is not part of the format and is ignored',
  approval_claim: 'claims approval or trust, which a document cannot carry',
  forbidden_key: 'is a forbidden name',
  outside_view: 'is not part of this view',
  not_an_object: 'must be an object',
  wrong_type: 'has the wrong type',
  unknown_key: 'is not part of the format',
  too_deep: 'is nested too deeply',
  missing_field: 'is required',
  empty_value: 'must not be empty',
  mixed_transport_fields: 'mixes stdio and http fields',
  url_without_type: 'needs a "type" next to its url',
  missing_transport: 'needs a type, a command or a url',
  unknown_transport: 'names an unknown transport',
  client_secret_in_definition: 'holds a client secret, which never lives in a definition',
  invalid_variable_reference: 'has a malformed ${…} reference',
  invalid_env_name: 'is not a valid environment variable name',
  invalid_header_name: 'is not a valid header name',
  duplicate_header: 'repeats a header name',
  invalid_header_value: 'contains a line break',
  invalid_option: 'is an option its reader refused',
  document_too_large: 'is larger than 512 KiB (the most one source may hold)',
  document_too_deep: 'nests deeper than 16 levels',
  duplicate_key: 'repeats a key (each key may appear once)',
  too_many_arguments: 'holds more than 256 arguments',
  invisible_character: 'holds an invisible or control character, which it may not',
  cwd_parent_segment: 'climbs with “..”: say the directory directly',
  protocol_header: 'is a header the transport or the MCP protocol sets itself',
};

export function reasonLabel(reason: string | null | undefined): string {
  if (!reason) return '';
  return REASON_LABELS[reason] ?? reason.replaceAll('_', ' ');
}

/** A problem's path (`mcpServers.github.args.2`), or '' for the whole thing. */
export function problemPath(problem: DefinitionProblemView): string {
  const path = problem['path'];
  return Array.isArray(path) ? path.map((segment) => String(segment)).join('.') : '';
}

export function problemReason(problem: DefinitionProblemView): string {
  const reason = problem['reason'];
  return typeof reason === 'string' ? reason : 'problem';
}

/** One line for a problem: where, what, and the named extras (a variable, an option), never a value. */
export function describeProblem(problem: DefinitionProblemView): string {
  const extras = ['variable', 'option', 'detail', 'serverName']
    .map((key) => problem[key])
    .filter((value): value is string => typeof value === 'string');
  const source = problem['source'];
  const origin =
    typeof source === 'object' &&
    source !== null &&
    typeof (source as Record<string, unknown>)['origin'] === 'string'
      ? String((source as Record<string, unknown>)['origin'])
      : '';
  return [origin, reasonLabel(problemReason(problem)), ...extras.map((extra) => `(${extra})`)]
    .filter(Boolean)
    .join(' · ');
}

/** The shortened fingerprint for tables; the detail page shows it whole. */
export function shortFingerprint(fingerprint: string | null): string {
  if (fingerprint === null) return '—';
  const hex = fingerprint.replace(/^[a-z0-9]+:/i, '');
  return hex.length > 12 ? `${hex.slice(0, 12)}…` : hex;
}
