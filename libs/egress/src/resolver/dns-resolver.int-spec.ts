import { startUdpDnsServer, type UdpDnsServer } from '../test-support/udp-dns-server';
import { createDnsResolver } from './dns-resolver';

// The c-ares resolver against a DNS server on 127.0.0.1 (real UDP packets, no network).

const UNRESOLVABLE = { ok: false, reason: 'unresolvable' };

let dns: UdpDnsServer;

beforeAll(async () => {
  dns = await startUdpDnsServer({
    'dual.example': { A: ['93.184.216.34', '93.184.216.35'], AAAA: ['2606:2800:220:1::1'] },
    'v4-only.example': { A: ['93.184.216.34'] },
    'v6-only.example': { AAAA: ['2606:2800:220:1::1'] },
    'no-records.example': {},
    'broken.example': 'servfail',
    'black-hole.example': 'silent',
    'aaaa-never-answers.example': { A: ['93.184.216.34'], AAAA: 'silent' },
  });
});

afterAll(async () => {
  await dns.close();
});

const resolverFor = (servers: readonly string[]) => createDnsResolver({ servers, timeoutMs: 300, tries: 2 });

describe('createDnsResolver', () => {
  it('asks for A and AAAA and answers with both, IPv4 first', async () => {
    const result = await resolverFor([dns.address]).resolve('dual.example');
    expect(result).toEqual({
      ok: true,
      addresses: ['93.184.216.34', '93.184.216.35', '2606:2800:220:1::1'],
    });
    expect(dns.asked).toEqual(expect.arrayContaining(['dual.example A', 'dual.example AAAA']));
  });

  it('takes "no records of this type" as an empty answer for that type', async () => {
    const resolver = resolverFor([dns.address]);
    expect(await resolver.resolve('v4-only.example')).toEqual({ ok: true, addresses: ['93.184.216.34'] });
    expect(await resolver.resolve('v6-only.example')).toEqual({
      ok: true,
      addresses: ['2606:2800:220:1::1'],
    });
  });

  it('is unresolvable when there is no address at all, no such name, or a server failure', async () => {
    const resolver = resolverFor([dns.address]);
    expect(await resolver.resolve('no-records.example')).toEqual(UNRESOLVABLE);
    expect(await resolver.resolve('nothing-here.example')).toEqual(UNRESOLVABLE);
    expect(await resolver.resolve('broken.example')).toEqual(UNRESOLVABLE);
  });

  it('gives up on a server that never answers: unresolvable within its deadline', async () => {
    // jest's own timeout is what catches a lookup that would hang.
    expect(await resolverFor([dns.address]).resolve('black-hole.example')).toEqual(UNRESOLVABLE);
    expect(dns.asked).toContain('black-hole.example A');
  });

  it('refuses to answer half: an AAAA query that never returns makes the name unresolvable', async () => {
    expect(await resolverFor([dns.address]).resolve('aaaa-never-answers.example')).toEqual(UNRESOLVABLE);
  });

  it('answers localhost (and names under it) with loopback and an IP literal with itself, asking nobody', async () => {
    const before = dns.asked.length;
    const resolver = resolverFor([dns.address]);
    expect(await resolver.resolve('localhost')).toEqual({ ok: true, addresses: ['127.0.0.1', '::1'] });
    expect(await resolver.resolve('api.localhost')).toEqual({ ok: true, addresses: ['127.0.0.1', '::1'] });
    expect(await resolver.resolve('93.184.216.34')).toEqual({ ok: true, addresses: ['93.184.216.34'] });
    expect(await resolver.resolve('2606:2800:220:1::1')).toEqual({
      ok: true,
      addresses: ['2606:2800:220:1::1'],
    });
    expect(dns.asked.length).toBe(before);
  });

  it('keeps concurrent lookups apart: one ending does not cancel another still in flight', async () => {
    const held = await startUdpDnsServer(
      { 'slow.example': { A: ['93.184.216.34'] } },
      { held: ['slow.example'] },
    );
    try {
      const resolver = createDnsResolver({ servers: [held.address], timeoutMs: 10_000, tries: 1 });
      const slow = resolver.resolve('slow.example');
      await held.askedAtLeast(2);
      expect(await resolver.resolve('nothing-here.example')).toEqual(UNRESOLVABLE);
      held.release();
      expect(await slow).toEqual({ ok: true, addresses: ['93.184.216.34'] });
    } finally {
      await held.close();
    }
  });

  it('refuses a timeout or tries that is not a positive integer', () => {
    expect(() => createDnsResolver({ timeoutMs: 0 })).toThrow('timeoutMs');
    expect(() => createDnsResolver({ tries: 1.5 })).toThrow('tries');
  });
});
