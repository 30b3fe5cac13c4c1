import { z } from 'zod';
import { COMMANDS } from './registry';
import { KIND_SCOPES, scopesBeyondKind } from './scopes';

describe('command registry', () => {
  it('has unique names, GraphQL fields and REST routes', () => {
    const names = COMMANDS.map((c) => c.name);
    const fields = COMMANDS.map((c) => c.graphql.field);
    const routes = COMMANDS.map((c) => `${c.http.method} ${c.http.path}`);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(fields).size).toBe(fields.length);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('declares every path parameter as an input field', () => {
    for (const command of COMMANDS) {
      const params = [...command.http.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
      for (const param of params) expect(Object.keys(command.input.shape)).toContain(param);
    }
  });

  it('refuses unknown input fields for every command', () => {
    for (const command of COMMANDS) {
      expect(command.input.safeParse({ definitelyUnknownField: 1 }).success).toBe(false);
    }
  });

  it('produces a JSON schema for every input and output (OpenAPI and GraphQL are generated from them)', () => {
    for (const command of COMMANDS) {
      expect(() => z.toJSONSchema(command.input, { io: 'input' })).not.toThrow();
      expect(() => z.toJSONSchema(command.output)).not.toThrow();
    }
  });

  it('never lets an agent, worker or gateway token decide approvals', () => {
    for (const kind of ['agent', 'worker', 'gateway'] as const) {
      expect(KIND_SCOPES[kind]).not.toContain('approvals:decide');
      expect(scopesBeyondKind(kind, ['approvals:decide'])).toEqual(['approvals:decide']);
    }
    expect(scopesBeyondKind('user', ['approvals:decide'])).toEqual([]);
  });
});
