import { secretOriginOf } from './secret-origin';

// A timing ratio, so not part of `npm test` (other processes' load decided it there): `npm run test:timing` runs
// it on demand, on a quiet machine. What secretOriginOf returns is specified in secret-origin.spec.ts.

describe('secretOriginOf', () => {
  it('is linear in its input (a ratio, not a time)', () => {
    const text = (n: number) =>
      `postgres://${'u'.repeat(n)}:${'@'.repeat(n)}@${'h'.repeat(n)}:${'1'.repeat(n)}/${'p'.repeat(n)}`;
    // The best of a few runs, so another process's load on the machine does not decide the ratio.
    const best = (value: string) => {
      let min = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 9; run += 1) {
        const start = process.hrtime.bigint();
        for (let i = 0; i < 3; i += 1) secretOriginOf(value);
        min = Math.min(min, Number(process.hrtime.bigint() - start));
      }
      return min;
    };
    const small = text(100_000);
    const large = text(1_000_000);
    best(small);
    // Ten times the input: well under a hundred times the work (quadratic would be ~100).
    expect(best(large) / best(small)).toBeLessThan(40);
  });
});
