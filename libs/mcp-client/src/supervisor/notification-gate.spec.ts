import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { NotificationBudget } from './notification-budget';
import { gateNotifications, type NotificationDropReason } from './notification-gate';

// The gate reads every message a server sends ahead of the SDK (decision 0130). A request from the server spends
// the same budget as a notification: past it, it is dropped unanswered (nothing reads it, nothing answers it).

function gated(burst: number) {
  const passed: JSONRPCMessage[] = [];
  const dropped: Array<[string, NotificationDropReason]> = [];
  let listChanged = 0;
  const transport: { onmessage?: (message: JSONRPCMessage) => void } = {
    onmessage: (message) => passed.push(message),
  };
  gateNotifications(transport, {
    budget: new NotificationBudget({ burst, perSecond: 1_000, now: () => 0 }),
    onListChanged: () => (listChanged += 1),
    onDropped: (method, reason) => dropped.push([method, reason]),
  });
  const read = (message: JSONRPCMessage) => transport.onmessage?.(message);
  return { passed, dropped, read, listChanged: () => listChanged };
}

it('passes requests within the budget and drops the rest unanswered, counted as request_flood', () => {
  const gate = gated(3);
  for (let id = 1; id <= 5; id += 1) gate.read({ jsonrpc: '2.0', id, method: 'ping' });
  expect(gate.passed.map((m) => ('id' in m ? m.id : null))).toEqual([1, 2, 3]);
  expect(gate.dropped).toEqual([
    ['ping', 'request_flood'],
    ['ping', 'request_flood'],
  ]);
});

it('spends one budget for notifications and requests alike', () => {
  const gate = gated(3);
  gate.read({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'a' } });
  gate.read({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'b' } });
  gate.read({ jsonrpc: '2.0', id: 'x', method: 'elicitation/create', params: {} });
  gate.read({ jsonrpc: '2.0', id: 'y', method: 'ping' });
  gate.read({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'c' } });
  expect(gate.passed).toHaveLength(3);
  expect(gate.dropped).toEqual([
    ['ping', 'request_flood'],
    ['notifications/message', 'flood'],
  ]);
});

it('never stops responses to our own requests, and a request named like list_changed is not a list_changed', () => {
  const gate = gated(1);
  gate.read({ jsonrpc: '2.0', id: 1, method: 'ping' });
  for (let id = 1; id <= 3; id += 1) gate.read({ jsonrpc: '2.0', id, result: {} });
  gate.read({ jsonrpc: '2.0', id: 9, method: 'notifications/tools/list_changed' });
  expect(gate.passed).toHaveLength(4);
  expect(gate.listChanged()).toBe(0);
  expect(gate.dropped).toEqual([['notifications/tools/list_changed', 'request_flood']]);
});
