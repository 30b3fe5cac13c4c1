import fc from 'fast-check';
import { decisionMatchesReview } from './review.guard';

describe('decisionMatchesReview', () => {
  it('accepts a decision on exactly what was reviewed', () => {
    expect(
      decisionMatchesReview({
        seenFingerprint: 'f',
        currentFingerprint: 'f',
        seenIdentity: 'i',
        currentIdentity: 'i',
      }),
    ).toEqual({ ok: true });
  });

  it('refuses when the definition changed after review, naming what changed', () => {
    expect(
      decisionMatchesReview({
        seenFingerprint: 'f1',
        currentFingerprint: 'f2',
        seenIdentity: 'i1',
        currentIdentity: 'i2',
      }),
    ).toEqual({ ok: false, reason: 'changed_since_review', changed: ['fingerprint', 'identity'] });
  });

  it('accepts exactly when both are unchanged', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (sf, cf, si, ci) => {
        const check = decisionMatchesReview({
          seenFingerprint: sf,
          currentFingerprint: cf,
          seenIdentity: si,
          currentIdentity: ci,
        });
        expect(check.ok).toBe(sf === cf && si === ci);
      }),
    );
  });
});
