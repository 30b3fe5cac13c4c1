import type { CatalogPrompt, CatalogTool, WorkspaceCatalogV1 } from '@gatehouse/contracts';
import { namespacedUriOf, resolveResource, type TemplateMatcher } from './served-surface.js';
import { toolPolicyOf } from './tool-policy.js';

const source = { tier: 'managed' as const, origin: 'managed:gateway' };

function tool(server: string, remoteName: string): CatalogTool {
  return {
    name: `mcp__${server}__${remoteName}`,
    remoteName,
    inputSchema: { type: 'object' },
    axes: { effect: 'write', egress: true },
    axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
    contentOrigin: 'external',
    source,
  };
}

function prompt(server: string, remoteName: string): CatalogPrompt {
  return { name: `mcp__${server}__${remoteName}`, remoteName, source };
}

function server(name: string, scheme: string) {
  return {
    identity: { server: name, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
    source,
    contentOrigin: 'external' as const,
    contentOriginDeclared: false,
    complete: true,
    stale: false,
    fetchedAt: '2026-12-01T12:00:00.000Z',
    tools: [tool(name, 'echo')],
    prompts: [prompt(name, 'greet')],
    resources: [{ name: `mcp__${name}__doc`, remoteName: 'doc', uri: `${scheme}://doc/1`, source }],
    resourceTemplates: [
      { name: `mcp__${name}__docs`, remoteName: 'docs', uriTemplate: `${scheme}://doc/{id}`, source },
    ],
    diagnostics: [],
  };
}

const catalog: WorkspaceCatalogV1 = {
  v: 1,
  workspaceId: '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a',
  principalUserId: null,
  complete: true,
  stale: false,
  servers: ['a', 'b'].map((name) => ({
    name,
    state: 'discovered' as const,
    source,
    definitionFingerprint: `f-${name}`,
    discoveredFor: 'workspace' as const,
    identity: { server: name, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
    complete: true,
    stale: name === 'b',
    fetchedAt: '2026-12-01T12:00:00.000Z',
  })),
  document: {
    v: 1,
    complete: true,
    stale: false,
    servers: [server('a', 'mem'), server('b', 'mem')],
    diagnostics: [],
  },
};

/** Stands in for RFC 6570 matching of the simple `{id}` templates above (one segment, no slash). */
const matches: TemplateMatcher = (template, uri) => {
  const [before, after] = template.split('{id}');
  if (before === undefined || after === undefined || !uri.startsWith(before) || !uri.endsWith(after))
    return false;
  const value = uri.slice(before.length, uri.length - after.length);
  return value.length > 0 && !value.includes('/');
};

describe('the workspace surface', () => {
  const surface = toolPolicyOf(catalog).surface({ kind: 'workspace' });

  it('serves every server under namespaced names and URIs; two servers with one URI stay apart', () => {
    expect(surface?.prompts.map((p) => p.name)).toEqual(['mcp__a__greet', 'mcp__b__greet']);
    expect(surface?.resources.map((r) => r.uri)).toEqual([
      'gatehouse://a/mem://doc/1',
      'gatehouse://b/mem://doc/1',
    ]);
    expect(surface?.templates.map((t) => t.uriTemplate)).toEqual([
      'gatehouse://a/mem://doc/{id}',
      'gatehouse://b/mem://doc/{id}',
    ]);
  });

  it('round-trips: a served URI resolves to its server and the upstream URI it was made from', () => {
    if (surface === undefined) throw new Error('no surface');
    for (const served of surface.resources)
      expect(resolveResource(surface, served.uri, matches)).toEqual({
        server: served.server,
        remoteUri: served.remoteUri,
      });
    expect(resolveResource(surface, namespacedUriOf('b', 'mem://doc/9'), matches)).toEqual({
      server: 'b',
      remoteUri: 'mem://doc/9',
    });
  });

  it('resolves nothing else: un-namespaced, unserved server, unmatched, empty', () => {
    if (surface === undefined) throw new Error('no surface');
    for (const uri of [
      'mem://doc/1',
      'gatehouse://c/mem://doc/1',
      'gatehouse://a/mem://doc/1/2',
      'gatehouse://a/other://doc/1',
      'gatehouse://a/',
      'gatehouse://a',
      'GATEHOUSE://a/mem://doc/1',
    ])
      expect(resolveResource(surface, uri, matches)).toBeUndefined();
  });
});

describe('a server’s passthrough surface', () => {
  const policy = toolPolicyOf(catalog);

  it('serves one server under its own names, with that server’s freshness only', () => {
    const surface = policy.surface({ kind: 'server', server: 'b' });
    expect(surface?.tools.map((t) => [t.name, t.exposed.name])).toEqual([['echo', 'mcp__b__echo']]);
    expect(surface?.prompts.map((p) => p.name)).toEqual(['greet']);
    expect(surface?.resources.map((r) => r.uri)).toEqual(['mem://doc/1']);
    expect(surface?.freshness).toEqual({
      complete: true,
      stale: true,
      servers: [{ name: 'b', state: 'discovered', complete: true, stale: true }],
    });
    if (surface === undefined) throw new Error('no surface');
    expect(resolveResource(surface, 'mem://doc/3', matches)).toEqual({
      server: 'b',
      remoteUri: 'mem://doc/3',
    });
    expect(resolveResource(surface, 'gatehouse://b/mem://doc/3', matches)).toBeUndefined();
  });

  it('is undefined for a server the catalog does not carry, and is built once per server', () => {
    expect(policy.surface({ kind: 'server', server: 'c' })).toBeUndefined();
    expect(policy.surface({ kind: 'server', server: 'a' })).toBe(
      policy.surface({ kind: 'server', server: 'a' }),
    );
    expect(policy.surface({ kind: 'workspace' })).toBe(policy.surface({ kind: 'workspace' }));
  });
});
