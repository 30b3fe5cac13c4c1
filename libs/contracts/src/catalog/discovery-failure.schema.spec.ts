import {
  DISCOVERY_FAILURE_REASONS,
  DISCOVERY_FAILURE_SENTENCES,
  discoveryFailureLine,
  discoveryFailureReport,
  discoveryFailureView,
  discoveryFailureViewOf,
} from './discovery-failure.schema';

describe('discovery failure words', () => {
  it('has a short sentence for every reason word, each word a stable identifier', () => {
    for (const reason of DISCOVERY_FAILURE_REASONS) {
      expect(reason).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
      const sentence = DISCOVERY_FAILURE_SENTENCES[reason];
      expect(sentence.length).toBeGreaterThan(10);
      expect(sentence.length).toBeLessThanOrEqual(200);
    }
  });

  it('accepts exactly the two closed words in a report', () => {
    expect(
      discoveryFailureReport.safeParse({ failureClass: 'protocol', reason: 'protocol_version_refused' })
        .success,
    ).toBe(true);
    expect(discoveryFailureReport.safeParse({ failureClass: 'protocol', reason: 'nope' }).success).toBe(
      false,
    );
    expect(discoveryFailureReport.safeParse({ failureClass: 'weird', reason: 'spawn_failed' }).success).toBe(
      false,
    );
    expect(
      discoveryFailureReport.safeParse({ failureClass: 'fatal', reason: 'spawn_failed', detail: 'x' })
        .success,
    ).toBe(false);
  });

  it('reads a stored row as the view, an unknown stored word as unlisted', () => {
    const at = new Date('2026-12-02T12:00:00.000Z');
    const view = discoveryFailureViewOf({ failureClass: 'protocol', reason: 'protocol_version_refused', at });
    expect(view).toEqual({
      failureClass: 'protocol',
      reason: 'protocol_version_refused',
      detail: 'the server refused every protocol version we speak',
      at: '2026-12-02T12:00:00.000Z',
    });
    expect(discoveryFailureView.parse(view)).toEqual(view);
    expect(discoveryFailureViewOf({ failureClass: 'odd', reason: 'gone_word', at })).toMatchObject({
      failureClass: 'fatal',
      reason: 'unlisted',
    });
    expect(discoveryFailureLine(view)).toBe(
      'protocol_version_refused: the server refused every protocol version we speak',
    );
  });
});
