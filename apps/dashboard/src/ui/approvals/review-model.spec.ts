import { originInWords, reviewModelOf } from './review-model';

const stdio = {
  transport: {
    kind: 'stdio',
    command: 'npx',
    args: ['-y', '@acme/deploy-mcp', '--region', 'eu-west-2'],
    commandLine: 'npx -y @acme/deploy-mcp --region eu-west-2',
    cwd: null,
    env: { state: 'redacted', keys: ['API_KEY', 'LOG_LEVEL', 'REGION'] },
  },
  requiresTrustedWorkspace: false,
  options: { elicitation: false, startupTimeoutMs: 20000 },
};

describe('reviewModelOf', () => {
  it('shows what runs, marking each env key added, removed or with a changed value, and changed fields', () => {
    const model = reviewModelOf(stdio, [
      { kind: 'changed', path: ['options', 'startupTimeoutMs'], before: 10000, after: 20000 },
      { kind: 'changed', path: ['transport', 'args'], before: ['-y'], after: ['-y', '--region'] },
      {
        kind: 'changed',
        path: ['transport', 'env', 'keys'],
        before: ['API_KEY', 'DEPLOY_TOKEN', 'LOG_LEVEL'],
        after: ['API_KEY', 'LOG_LEVEL', 'REGION'],
      },
      { kind: 'changed', path: ['transport', 'env', 'values', 'API_KEY'] },
      { kind: 'added', path: ['transport', 'env', 'values', 'REGION'] },
      { kind: 'removed', path: ['transport', 'env', 'values', 'DEPLOY_TOKEN'] },
    ]);
    expect(model?.target).toEqual({
      label: 'Command line',
      value: 'npx -y @acme/deploy-mcp --region eu-west-2',
      changed: true,
    });
    expect(model?.details).toEqual([
      { label: 'Working directory', value: 'The first root the worker pool allows', changed: false },
    ]);
    expect(model?.keys).toEqual([
      { key: 'API_KEY', mark: 'value_changed' },
      { key: 'LOG_LEVEL', mark: null },
      { key: 'REGION', mark: 'added' },
      { key: 'DEPLOY_TOKEN', mark: 'removed' },
    ]);
    expect(model?.options).toEqual([
      { label: 'Elicitation', value: 'Off', changed: false },
      { label: 'Startup timeout', value: '20,000 ms', changed: true },
    ]);
  });

  it('marks nothing on a first review, and reads an http definition', () => {
    const model = reviewModelOf(
      {
        transport: {
          kind: 'http',
          url: 'https://docs.acme.test/mcp',
          headers: { state: 'redacted', keys: ['Authorization'] },
          headersHelper: null,
          oauth: null,
          principalHeader: null,
        },
        requiresTrustedWorkspace: true,
        options: { elicitation: false },
      },
      [],
    );
    expect(model?.kind).toBe('http');
    expect(model?.target).toEqual({ label: 'URL', value: 'https://docs.acme.test/mcp', changed: false });
    expect(model?.keys).toEqual([{ key: 'Authorization', mark: null }]);
    expect(model?.requiresTrustedWorkspace.value).toMatch(/^Yes/);
  });

  it('gives no model for a projection of another shape', () => {
    expect(reviewModelOf({ something: 'else' }, [])).toBeNull();
  });
});

describe('originInWords', () => {
  const workspaceId = '0b7a3c4e-1111-4222-8333-444455556666';
  const userId = '9f8e7d6c-aaaa-4bbb-8ccc-ddddeeeeffff';
  const names = {
    workspaceName: (id: string) => (id === workspaceId ? 'platform-core' : undefined),
    personName: (id: string) => (id === userId ? 'Ada Approver' : undefined),
  };

  it('names the workspace and the person behind the ids', () => {
    expect(originInWords({ tier: 'project', origin: `project:${workspaceId}` }, names)).toBe(
      'Workspace platform-core',
    );
    expect(originInWords({ tier: 'user', origin: `user:${userId}` }, names)).toBe('Ada Approver’s own');
    expect(originInWords({ tier: 'local', origin: `local:${workspaceId}:${userId}` }, names)).toBe(
      'Ada Approver’s own, in workspace platform-core',
    );
    expect(originInWords({ tier: 'managed', origin: 'managed:org-policy' }, names)).toBe('org-policy');
  });

  it('gives null for an id the reader cannot name', () => {
    expect(
      originInWords({ tier: 'project', origin: 'project:00000000-0000-4000-8000-000000000000' }, names),
    ).toBeNull();
  });
});
