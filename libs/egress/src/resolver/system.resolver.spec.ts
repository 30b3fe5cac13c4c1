import type { LookupAddress } from 'node:dns';
import { createFixedResolver } from './fixed.resolver';
import { createSystemResolver, type LookupAll } from './system.resolver';

const dnsError = (code: string): Error =>
  Object.assign(new Error(`getaddrinfo ${code} x`), { code, syscall: 'getaddrinfo' });

describe('createSystemResolver', () => {
  it('asks for every address in the order the resolver gave them', async () => {
    const calls: unknown[] = [];
    const lookup: LookupAll = (hostname, options) => {
      calls.push([hostname, options]);
      const answers: LookupAddress[] = [
        { address: '2606:2800:220:1::1', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ];
      return Promise.resolve(answers);
    };
    const result = await createSystemResolver({ lookup }).resolve('api.example');
    expect(result).toEqual({ ok: true, addresses: ['2606:2800:220:1::1', '93.184.216.34'] });
    expect(calls).toEqual([['api.example', { all: true, order: 'verbatim' }]]);
  });

  it.each(['ENOTFOUND', 'ENODATA', 'EAI_AGAIN', 'EAI_FAIL', 'ESERVFAIL'])(
    'maps %s to unresolvable',
    async (code) => {
      const lookup: LookupAll = () => Promise.reject(dnsError(code));
      expect(await createSystemResolver({ lookup }).resolve('nowhere.example')).toEqual({
        ok: false,
        reason: 'unresolvable',
      });
    },
  );

  it('throws what is not a DNS answer (a bug, not a name that does not resolve)', async () => {
    const lookup: LookupAll = () => Promise.reject(new TypeError('bad argument'));
    await expect(createSystemResolver({ lookup }).resolve('x.example')).rejects.toThrow('bad argument');
  });
});

describe('createFixedResolver', () => {
  it('answers from its table and nothing else', async () => {
    const resolver = createFixedResolver({ 'api.example': ['93.184.216.34'] });
    expect(await resolver.resolve('api.example')).toEqual({ ok: true, addresses: ['93.184.216.34'] });
    expect(await resolver.resolve('constructor')).toEqual({ ok: false, reason: 'unresolvable' });
  });
});
