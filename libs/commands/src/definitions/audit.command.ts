import {
  auditEventPage,
  auditEventView,
  auditHeadView,
  auditVerificationView,
  getAuditHeadInput,
  listAuditEventsInput,
  verifyAuditChainInput,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';

export { auditEventView, auditHeadView };

export const listAuditEvents = defineCommand({
  name: 'audit.list',
  summary: 'Audit events, newest first, with filters',
  scope: 'audit:read',
  kind: 'query',
  input: listAuditEventsInput,
  output: auditEventPage,
  http: { method: 'GET', path: '/v1/audit-events' },
  graphql: { field: 'auditEvents' },
  surfaces: { mcp: MCP_READ },
  problems: ['bad_cursor'],
});

export const getAuditHead = defineCommand({
  name: 'audit.head',
  summary: 'The chain head to checkpoint outside Gatehouse (detects deletion of the newest rows)',
  scope: 'audit:read',
  kind: 'query',
  input: getAuditHeadInput,
  output: auditHeadView,
  http: { method: 'GET', path: '/v1/audit-events/head' },
  graphql: { field: 'auditHead' },
  surfaces: { mcp: MCP_READ },
  problems: [],
});

export const verifyAuditChain = defineCommand({
  name: 'audit.verify',
  summary: 'Recompute the chain; names the first bad row. Give a checkpoint to detect truncation.',
  scope: 'audit:read',
  kind: 'query',
  input: verifyAuditChainInput,
  output: auditVerificationView,
  http: { method: 'GET', path: '/v1/audit-events/verify' },
  graphql: { field: 'verifyAuditChain' },
  surfaces: { mcp: MCP_READ },
  problems: [],
});
