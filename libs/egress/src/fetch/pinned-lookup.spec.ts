import type { LookupAddress, LookupOptions } from 'node:dns';
import { createPinnedLookup } from './pinned-lookup';

interface Answer {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family?: number;
}

function ask(
  lookup: ReturnType<typeof createPinnedLookup>,
  hostname: string,
  options: LookupOptions,
): Answer {
  let answer: Answer | undefined;
  lookup(hostname, options, (error, address, family) => {
    answer = { error, address, family };
  });
  if (answer === undefined) throw new Error('lookup did not answer synchronously');
  return answer;
}

describe('createPinnedLookup', () => {
  const lookup = createPinnedLookup('api.example.', ['2606:2800:220:1::1', '93.184.216.34']);

  it('answers every admitted address when Node races families (all: true)', () => {
    expect(ask(lookup, 'api.example', { all: true })).toEqual({
      error: null,
      address: [
        { address: '2606:2800:220:1::1', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ],
      family: undefined,
    });
  });

  it('answers the first admitted address of the wanted family otherwise', () => {
    expect(ask(lookup, 'API.example.', {})).toEqual({
      error: null,
      address: '2606:2800:220:1::1',
      family: 6,
    });
    expect(ask(lookup, 'api.example', { family: 4 })).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect(ask(lookup, 'api.example', { family: 'IPv6', all: true }).address).toEqual([
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('refuses any other host name instead of resolving it', () => {
    const answer = ask(lookup, 'other.example', { all: true });
    expect(answer.error?.code).toBe('ENOTFOUND');
    expect(answer.address).toBe('');
  });

  it('refuses a family it holds no admitted address for', () => {
    const v4only = createPinnedLookup('api.example', ['93.184.216.34']);
    expect(ask(v4only, 'api.example', { family: 6 }).error?.code).toBe('ENOTFOUND');
  });

  it('will not be built over anything but IP addresses', () => {
    expect(() => createPinnedLookup('api.example', ['api.example'])).toThrow(/not an IP address/);
  });
});
