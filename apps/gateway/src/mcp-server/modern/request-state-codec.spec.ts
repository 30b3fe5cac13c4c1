import type { ServerContext } from '@modelcontextprotocol/server';
import { REQUEST_STATE_TTL_SECONDS, requestStateCodec, requestStateKeyOf } from './request-state-codec';

// The SDK's codec as the gateway configures it: a key derived from the gateway token (the same on every replica),
// a short life, and a binding to the caller. The clock is moved, not waited for.

/** The one thing the binding reads, standing in for a request's context. */
const ctxOf = (who: string) => ({ who }) as unknown as ServerContext;
const bindingOf = (ctx: ServerContext) => (ctx as unknown as { who: string }).who;

describe('the requestState codec', () => {
  afterEach(() => jest.useRealTimers());

  it('verifies what any replica with the same gateway token minted', async () => {
    const minted = await requestStateCodec(requestStateKeyOf('ghg_gateway-token'), bindingOf).mint(
      { n: 1 },
      ctxOf('agent'),
    );
    const elsewhere = requestStateCodec(requestStateKeyOf('ghg_gateway-token'), bindingOf);
    await expect(elsewhere.verify(minted, ctxOf('agent'))).resolves.toEqual({ n: 1 });
  });

  it("refuses another gateway's state, another caller's, and an expired one", async () => {
    jest.useFakeTimers({ now: new Date('2026-12-02T12:00:00Z') });
    const codec = requestStateCodec(requestStateKeyOf('ghg_gateway-token'), bindingOf);
    const minted = await codec.mint({ n: 1 }, ctxOf('agent'));
    await expect(
      requestStateCodec(requestStateKeyOf('ghg_other'), bindingOf).verify(minted, ctxOf('agent')),
    ).rejects.toThrow('mac');
    await expect(codec.verify(minted, ctxOf('alice'))).rejects.toThrow('bind');
    jest.setSystemTime(Date.now() + (REQUEST_STATE_TTL_SECONDS + 1) * 1_000);
    await expect(codec.verify(minted, ctxOf('agent'))).rejects.toThrow('expired');
  });
});
