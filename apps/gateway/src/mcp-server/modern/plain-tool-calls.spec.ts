import type { IncomingHttpHeaders } from 'node:http';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { plainCallOf } from './plain-tool-calls';

// Which accepted 2026 requests the plain path takes: a tools/call that needs one answer and nothing else. Each
// other case is the SDK's (it streams, bridges, resumes a round, or judges something this path does not).

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' },
};
const HEADERS: IncomingHttpHeaders = {
  'content-type': 'application/json',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

function callWith(params: Record<string, unknown>, meta: Record<string, unknown> = ENVELOPE): JSONRPCRequest {
  return {
    jsonrpc: '2.0',
    id: 4,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'x' }, ...params, _meta: meta },
  };
}

describe('plainCallOf', () => {
  it('takes a plain tools/call: its id, name and arguments', () => {
    expect(plainCallOf(HEADERS, callWith({}))).toEqual({
      id: 4,
      params: { name: 'echo', arguments: { text: 'x' } },
    });
    expect(plainCallOf(HEADERS, callWith({ arguments: undefined }))?.params.arguments).toEqual({});
    // A key of the caller's own in _meta asks nothing of the exchange.
    expect(plainCallOf(HEADERS, callWith({}, { ...ENVELOPE, 'example.com/trace': 1 }))).toBeDefined();
  });

  it.each([
    ['a progress token (the answer streams)', callWith({}, { ...ENVELOPE, progressToken: 1 })],
    [
      'declared elicitation (a bridge round)',
      callWith({}, { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } }),
    ],
    ['a requestState (a retry)', callWith({ requestState: 'v1.x' })],
    ['inputResponses (a retry)', callWith({ inputResponses: {} })],
    ['a task', callWith({ task: { ttl: 1 } })],
    [
      'another reserved _meta key',
      callWith({}, { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' }),
    ],
    [
      'a 2025 version in the envelope',
      callWith({}, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
    ],
    ['arguments that are not an object', callWith({ arguments: ['x'] })],
  ])('leaves to the SDK a call with %s', (_label, request) => {
    expect(plainCallOf(HEADERS, request)).toBeUndefined();
  });

  it.each([
    ['no Mcp-Name', { ...HEADERS, 'mcp-name': undefined }],
    ['another Mcp-Name', { ...HEADERS, 'mcp-name': 'other' }],
    ['no Mcp-Method', { ...HEADERS, 'mcp-method': undefined }],
    ['no version header', { ...HEADERS, 'mcp-protocol-version': undefined }],
    ['a body that is not JSON', { ...HEADERS, 'content-type': 'text/plain' }],
  ])('leaves to the SDK a call with %s', (_label, headers) => {
    expect(plainCallOf(headers, callWith({}))).toBeUndefined();
  });

  it('leaves any other method to the SDK', () => {
    expect(plainCallOf(HEADERS, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toBeUndefined();
  });
});
