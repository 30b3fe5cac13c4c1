import { tokenPage, workspaceView } from '@gatehouse/contracts';
import { z } from 'zod';
import { problemInWords } from './problem-words';
import { readAnswer } from './api-answer';

// Every answer the dashboard reads is parsed with the API's own schema (@gatehouse/contracts): a body of another
// shape is the dashboard's own `api_bad_response`, shown in words, never a crash and never its text echoed.

const workspace = {
  id: '3f1c6f5e-0d7e-4d4a-9a57-1b2f0b7c9c11',
  name: 'Payments',
  repositoryIdentity: null,
  generation: 1,
  trusted: false,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
};

describe('readAnswer', () => {
  it('gives the parsed answer, typed by the schema', () => {
    const result = readAnswer(workspaceView, 200, { ...workspace, extra: 'dropped' });
    expect(result).toEqual({ ok: true, status: 200, data: workspace });
  });

  it('refuses an answer of another shape as api_bad_response, without echoing it', () => {
    for (const body of [
      { ...workspace, generation: 'one' },
      { ...workspace, id: 'not-a-uuid' },
      { items: [workspace] },
      '<html>proxy says hello</html>',
      undefined,
      null,
    ]) {
      const result = readAnswer(workspaceView, 200, body);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.problem.code).toBe('api_bad_response');
      expect(result.problem.status).toBe(200);
      expect(JSON.stringify(result.problem)).not.toMatch(/proxy says hello|not-a-uuid|one/);
    }
  });

  it('refuses a list whose items do not fit, and a value outside a declared list', () => {
    const token = {
      id: '3f1c6f5e-0d7e-4d4a-9a57-1b2f0b7c9c12',
      name: 'ci',
      kind: 'user',
      prefix: 'ghu_abcdef',
      scopes: ['tenant:read'],
      userId: null,
      workspaceIds: [],
      pool: null,
      createdAt: '2026-01-02T03:04:05.000Z',
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    };
    expect(readAnswer(tokenPage, 200, { items: [token], nextCursor: null }).ok).toBe(true);
    expect(
      readAnswer(tokenPage, 200, { items: [{ ...token, scopes: ['root:everything'] }], nextCursor: null }).ok,
    ).toBe(false);
    expect(readAnswer(tokenPage, 200, { items: [{ ...token, kind: 'robot' }], nextCursor: null }).ok).toBe(
      false,
    );
  });

  it('reads an answer without a body when the schema says there is none', () => {
    expect(readAnswer(z.undefined(), 204, undefined)).toEqual({ ok: true, status: 204, data: undefined });
    expect(readAnswer(z.undefined(), 200, { surprise: true }).ok).toBe(false);
  });

  it('has words for people, not a stack trace', () => {
    const result = readAnswer(workspaceView, 200, { nope: true });
    if (result.ok) throw new Error('expected a problem');
    const words = problemInWords(result.problem);
    expect(words.title.length).toBeGreaterThan(0);
    expect(`${words.title} ${words.detail ?? ''}`).not.toMatch(/zod|ZodError|invalid_type|expected/i);
  });
});
