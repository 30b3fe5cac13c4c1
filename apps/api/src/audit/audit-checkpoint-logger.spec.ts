import { createLogger } from '@gatehouse/platform';
import { AuditCheckpointLogger, noteAuditLink } from './audit-checkpoint-logger';
import { withAuditCheckpoints } from './audit-checkpointed-handlers';

function recordingSink() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    sink: {
      info: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }),
    },
  };
}

describe('AuditCheckpointLogger', () => {
  it('logs the newest link of each tenant once the command resolved, not before', async () => {
    const { lines, sink } = recordingSink();
    const logger = new AuditCheckpointLogger(sink);
    let seenInside = -1;
    const result = await logger.run(async () => {
      noteAuditLink('tenant-a', { seq: 1n, hash: 'a1' });
      await Promise.resolve();
      noteAuditLink('tenant-a', { seq: 2n, hash: 'a2' });
      noteAuditLink('tenant-b', { seq: 7n, hash: 'b7' });
      seenInside = lines.length;
      return 'done';
    });
    expect(result).toBe('done');
    expect(seenInside).toBe(0);
    expect(lines).toEqual([
      {
        message: 'audit.checkpoint',
        fields: { event: 'audit.checkpoint', tenantId: 'tenant-a', seq: '2', hash: 'a2' },
      },
      {
        message: 'audit.checkpoint',
        fields: { event: 'audit.checkpoint', tenantId: 'tenant-b', seq: '7', hash: 'b7' },
      },
    ]);
  });

  it('logs nothing when the command failed (its transaction rolled back)', async () => {
    const { lines, sink } = recordingSink();
    const logger = new AuditCheckpointLogger(sink);
    await expect(
      logger.run(async () => {
        noteAuditLink('tenant-a', { seq: 3n, hash: 'a3' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(lines).toEqual([]);
  });

  it('keeps concurrent commands apart and ignores links noted outside any run', async () => {
    const { lines, sink } = recordingSink();
    const logger = new AuditCheckpointLogger(sink);
    noteAuditLink('tenant-x', { seq: 1n, hash: 'x1' });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = logger.run(async () => {
      noteAuditLink('tenant-a', { seq: 1n, hash: 'a1' });
      await gate;
    });
    await logger.run(async () => noteAuditLink('tenant-b', { seq: 1n, hash: 'b1' }));
    expect(lines.map((l) => l.fields.tenantId)).toEqual(['tenant-b']);
    release();
    await slow;
    expect(lines.map((l) => l.fields.tenantId)).toEqual(['tenant-b', 'tenant-a']);
  });
});

describe('withAuditCheckpoints', () => {
  const listWorkspaces = { execute: async () => ({ items: [] }) };

  it('logs the links a mutation appended after it resolved, and leaves queries unwrapped', async () => {
    const { lines, sink } = recordingSink();
    const handlers = withAuditCheckpoints(
      {
        'workspaces.rename': {
          execute: async () => {
            noteAuditLink('tenant-a', { seq: 9n, hash: 'a9' });
            return { renamed: true };
          },
        },
        'workspaces.list': listWorkspaces,
      },
      new AuditCheckpointLogger(sink),
    );
    const principal = {} as never;
    expect(handlers['workspaces.list']).toBe(listWorkspaces);
    expect(await handlers['workspaces.list']?.execute({ principal, input: {} as never })).toEqual({
      items: [],
    });
    expect(lines).toEqual([]);
    expect(await handlers['workspaces.rename']?.execute({ principal, input: {} as never })).toEqual({
      renamed: true,
    });
    expect(lines.map((l) => l.fields)).toEqual([
      { event: 'audit.checkpoint', tenantId: 'tenant-a', seq: '9', hash: 'a9' },
    ]);
  });

  it('accepts the platform pino logger as its sink', () => {
    const logger = createLogger({ name: 'test', level: 'silent' });
    expect(() => new AuditCheckpointLogger(logger).log('t', { seq: 1n, hash: 'h' })).not.toThrow();
  });
});
