import { ProblemError } from '@gatehouse/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  findRefusedCharacter,
  installNulCharacterGuard,
  invalidCharacters,
  isWellFormedText,
} from './nul-character.guard';

const HIGH = '\ud800';
const LOW = '\udc00';
const PAIR = '\ud83d\ude00';

/** What Node's own (ES2024) check answers; the project's TypeScript lib does not declare it. */
function nativeIsWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

describe('isWellFormedText', () => {
  it.each([
    ['empty', '', true],
    ['ascii', 'plain text', true],
    ['a surrogate pair', `a${PAIR}b`, true],
    ['two pairs in a row', `${PAIR}${PAIR}`, true],
    ['U+FFFD and other BMP text', '\ufffd é ü 漢', true],
    ['a lone high surrogate', HIGH, false],
    ['a lone low surrogate', LOW, false],
    ['a high surrogate at the end', `ok${HIGH}`, false],
    ['a high surrogate followed by text', `${HIGH}x`, false],
    ['two high surrogates', `${HIGH}${HIGH}${LOW}`, false],
    ['a reversed pair', `${LOW}${HIGH}`, false],
    ['a pair then a lone low', `${PAIR}${LOW}`, false],
  ])('%s', (_label, text, expected) => {
    expect(isWellFormedText(text)).toBe(expected);
    expect(nativeIsWellFormed(text)).toBe(expected);
  });

  it('what JSON.parse makes of a lone "\\ud800" escape is ill-formed', () => {
    const parsed = JSON.parse('{"args":["\\ud800"]}') as { args: string[] };
    expect(isWellFormedText(parsed.args[0] as string)).toBe(false);
  });
});

describe('findRefusedCharacter', () => {
  it('finds a lone surrogate in nested values and in object keys', () => {
    expect(findRefusedCharacter({ document: { mcpServers: { a: { args: ['ok', `x${HIGH}`] } } } })).toBe(
      'lone_surrogate',
    );
    expect(findRefusedCharacter({ [`k${LOW}`]: 'v' })).toBe('lone_surrogate');
    expect(findRefusedCharacter(`${HIGH}`)).toBe('lone_surrogate');
  });

  it('finds NUL, and names NUL first when one string holds both', () => {
    expect(findRefusedCharacter({ name: 'a\u0000b' })).toBe('nul');
    expect(findRefusedCharacter([`\u0000${HIGH}`])).toBe('nul');
  });

  it('passes well-formed values of every kind', () => {
    expect(findRefusedCharacter({ a: [PAIR, 1, true, null, { b: 'é' }], c: undefined, d: 2.5 })).toBeNull();
    expect(findRefusedCharacter(undefined)).toBeNull();
    expect(findRefusedCharacter(42)).toBeNull();
  });

  it('walks a very deep value without overflowing the stack', () => {
    let deep: unknown = [HIGH];
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(findRefusedCharacter(deep)).toBe('lone_surrogate');
  });

  it('tells NUL from a lone surrogate', () => {
    expect(findRefusedCharacter({ a: ['x\u0000'] })).toBe('nul');
    expect(findRefusedCharacter({ a: [HIGH] })).toBe('lone_surrogate');
  });
});

describe('invalidCharacters', () => {
  it('keeps one stable code and says which character in the detail', () => {
    const nul = invalidCharacters();
    const lone = invalidCharacters('lone_surrogate');
    for (const error of [nul, lone]) {
      expect(error).toBeInstanceOf(ProblemError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_characters' });
    }
    expect(nul.detail).toContain('NUL');
    expect(lone.detail).toContain('lone UTF-16 surrogate');
  });
});

describe('installNulCharacterGuard', () => {
  let app: FastifyInstance;
  let reached: number;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    installNulCharacterGuard(app);
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof ProblemError) {
        return reply.status(error.status).send({ code: error.code, detail: error.detail });
      }
      return reply.status(500).send({ code: 'unexpected' });
    });
    reached = 0;
    app.put('/things/:name', async () => {
      reached += 1;
      return { ok: true };
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  // Only a JSON body can carry one: a URL's percent-encoding is UTF-8, which has no lone surrogates.
  it.each([
    ['a value', '{"args":["\\ud800"]}'],
    ['a nested key', '{"env":{"K\\udc00":"v"}}'],
    ['a value after a valid pair', '{"args":["\\ud83d\\ude00\\ud83d"]}'],
  ])(
    'refuses a lone surrogate escape in %s of a JSON body before the handler runs',
    async (_label, payload) => {
      const before = reached;
      const response = await app.inject({
        method: 'PUT',
        url: '/things/a',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_characters' });
      expect(response.json<{ detail: string }>().detail).toContain('surrogate');
      expect(reached).toBe(before);
    },
  );

  it('lets well-formed text (a surrogate pair included) through', async () => {
    const before = reached;
    const response = await app.inject({
      method: 'PUT',
      url: '/things/a',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ args: [`smile ${PAIR}`] }),
    });
    expect(response.statusCode).toBe(200);
    expect(reached).toBe(before + 1);
  });
});
