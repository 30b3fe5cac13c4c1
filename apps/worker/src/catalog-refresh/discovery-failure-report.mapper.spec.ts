import { discoveryFailureReportOf } from './discovery-failure-report.mapper';

describe('discoveryFailureReportOf', () => {
  it('passes a listed word and its class through', () => {
    expect(
      discoveryFailureReportOf({ failureClass: 'protocol', reason: 'protocol_version_refused' }),
    ).toEqual({
      failureClass: 'protocol',
      reason: 'protocol_version_refused',
    });
  });

  it('reads a templated egress word as egress_failed, and any other unknown word as unlisted', () => {
    expect(
      discoveryFailureReportOf({ failureClass: 'config', reason: 'egress_private_destination' }),
    ).toEqual({
      failureClass: 'config',
      reason: 'egress_failed',
    });
    expect(discoveryFailureReportOf({ failureClass: 'auth', reason: 'brand_new_word' })).toEqual({
      failureClass: 'auth',
      reason: 'unlisted',
    });
  });

  it('never forwards text: an unknown class is fatal, no failure at all is no_catalog', () => {
    expect(discoveryFailureReportOf({ failureClass: 'ECONNREFUSED 10.0.0.1', reason: 'x y' })).toEqual({
      failureClass: 'fatal',
      reason: 'unlisted',
    });
    expect(discoveryFailureReportOf(undefined)).toEqual({ failureClass: 'fatal', reason: 'no_catalog' });
  });
});
