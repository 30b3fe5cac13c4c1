import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectInMemory, createEdgeServer, makeTools } from '../discovery/test-support/edge-servers';
import { ConnectionSupervisor } from './connection-supervisor';
import { NotificationBudget } from './notification-budget';
import type { NotificationDropReason } from './notification-gate';

// A server that floods its connection during one call (decision 0130): 20,000 progress notifications of the call,
// 20,000 log messages and 20,000 tools/list_changed. Real SDK client and low-level server over an in-memory pair;
// the budget's clock is frozen, so exactly its burst is handled and nothing depends on timing.

const FLOOD = 20_000;
const BURST = 100;
const PER_CALL = 50;

const supervisors: ConnectionSupervisor[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.close()));
});

describe('a notification flood during one call', () => {
  it('answers the call, relays at most the call cap, drops and counts the rest, re-lists coalesced', async () => {
    let listings = 0;
    // The re-list's spacing is waited out until the call has answered: every list_changed of the flood arrives
    // while one re-list is pending.
    let callAnswered: () => void = () => undefined;
    const answered = new Promise<void>((done) => (callAnswered = done));
    const dropped = new Map<string, number>();
    const supervisor = new ConnectionSupervisor({
      serverId: 'flood',
      connect: async () => {
        const server = createEdgeServer({
          tools: makeTools(1),
          capabilities: { tools: { listChanged: true }, logging: {} },
        });
        server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
          const progressToken = extra._meta?.progressToken;
          if (progressToken === undefined) throw new Error('no progress token');
          for (let i = 1; i <= FLOOD; i += 1)
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: i },
            });
          for (let i = 0; i < FLOOD; i += 1)
            await server.sendLoggingMessage({ level: 'info', data: `line ${i}` });
          for (let i = 0; i < FLOOD; i += 1) await server.sendToolListChanged();
          return { content: [{ type: 'text', text: 'survived' }] };
        });
        const connected = await connectInMemory(server);
        return {
          ok: true,
          connection: {
            client: connected.client,
            protocolVersion: connected.protocolVersion() ?? 'unknown',
            close: connected.close,
          },
        };
      },
      notificationBudget: { burst: BURST, perSecond: 1_000, now: () => 0 },
      maxProgressPerCall: PER_CALL,
      relistSpacingMs: 60_000,
      delay: () => answered,
      onEvent: (event) => {
        if (event.type === 'catalog' && event.change === 'refreshed') listings += 1;
      },
      onDroppedNotification: (method: string, reason: NotificationDropReason) => {
        const key = `${method} ${reason}`;
        dropped.set(key, (dropped.get(key) ?? 0) + 1);
      },
    });
    supervisors.push(supervisor);
    expect(await supervisor.start()).toBe('ready');

    const relayed: number[] = [];
    const outcome = await supervisor.callTool(
      'tool_0',
      { q: 'x' },
      { onProgress: (p) => relayed.push(p.progress) },
    );
    callAnswered();
    await answered;
    await supervisor.settled();

    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome).toMatchObject({ ok: true, result: { content: [{ type: 'text', text: 'survived' }] } });
    // The budget's burst passed the first BURST progress; the call relayed its cap of them, in order.
    expect(relayed).toEqual(Array.from({ length: PER_CALL }, (_, i) => i + 1));
    expect(Object.fromEntries(dropped)).toEqual({
      'notifications/progress call_cap': BURST - PER_CALL,
      'notifications/progress flood': FLOOD - BURST,
      'notifications/message flood': FLOOD,
    });
    // 20,000 list_changed cost one re-list.
    expect(listings).toBe(1);
  });
});

describe('NotificationBudget', () => {
  it('spends its burst, then refills at its rate', () => {
    let now = 0;
    const budget = new NotificationBudget({ burst: 3, perSecond: 2, now: () => now });
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    now = 499;
    expect(budget.take()).toBe(false);
    now = 500;
    expect([budget.take(), budget.take()]).toEqual([true, false]);
    now = 60_000;
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
  });
});
