import * as surface from './index';

// The curated public surface of @gatehouse/mcp-client: named exports only (no `export *`), nothing of the SDK
// itself (no Client, no transports, no schemas), so that moving to the v2 SDK stays this lib's work. A new
// export is added here on purpose.

const RUNTIME_EXPORTS = [
  'AdmittedSession',
  'ConnectionSupervisor',
  'DEFAULT_BACKOFF',
  'DEFAULT_CALL_TIMEOUT_MS',
  'DEFAULT_LIST_REQUEST_TIMEOUT_MS',
  'DEFAULT_MAX_ENTRIES',
  'DEFAULT_MAX_PAGES',
  'DEFAULT_MAX_RESULT_CHARS',
  'DEFAULT_RECEIVE_CAP_BYTES',
  'FAILURE_CLASSES',
  'LIST_KINDS',
  'MAX_CURSOR_LENGTH',
  'MAX_HELPER_HEADERS',
  'MAX_REPORTED_DROPS',
  'MAX_REQUESTED_RESULT_CHARS',
  'MAX_SCHEMA_DEPTH',
  'MAX_SCHEMA_NODES',
  'MIN_REQUESTED_RESULT_CHARS',
  'McpTransportError',
  'RESULT_CAP_META_KEY',
  'admitToolResult',
  'admittedConnector',
  'backoffDelayMs',
  'catalogDocumentOf',
  'checkArguments',
  'checkSpawnAuthority',
  'classifyFailure',
  'connectAdmitted',
  'createHeaderHelperAuthenticator',
  'createLeaseTokenAuthenticator',
  'discoverCatalog',
  'isElicitationRefusal',
  'isMcpTransportError',
  'measureResultChars',
  'narrowInputSchema',
  'parseHeaderHelperOutput',
  'readResultCap',
  'runAsOptionsOf',
  'sameIdentity',
  'serverListingOf',
  'superviseAdmitted',
  'withheldResult',
];

describe('@gatehouse/mcp-client public surface', () => {
  it('exports exactly the curated names', () => {
    expect(Object.keys(surface).sort()).toEqual([...RUNTIME_EXPORTS].sort());
  });

  it('hands out none of the SDK: the supervisor and session are ours', () => {
    const sdkNames = ['Client', 'StreamableHTTPClientTransport', 'StdioClientTransport', 'McpError'];
    for (const name of sdkNames) expect(Object.keys(surface)).not.toContain(name);
  });
});
