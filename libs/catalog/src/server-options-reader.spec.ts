import { readServerOptions } from './server-options-reader';

describe('readServerOptions', () => {
  it('reads all options and keeps absent ones absent', () => {
    expect(readServerOptions({}, 'request')).toEqual({ ok: true, value: { elicitation: false } });
    expect(
      readServerOptions(
        {
          allowTools: ['search'],
          toolAxes: { search: { effect: 'read' } },
          contentOrigin: 'local',
          startupTimeoutMs: 5000,
          elicitation: true,
        },
        'deployment',
      ),
    ).toEqual({
      ok: true,
      value: {
        allowTools: ['search'],
        toolAxes: { search: { effect: 'read' } },
        contentOrigin: 'local',
        startupTimeoutMs: 5000,
        elicitation: true,
      },
    });
  });

  it('answers every refused option at once', () => {
    expect(
      readServerOptions(
        { toolAxes: { a: { effect: 'nope' } }, contentOrigin: 'local', startupTimeoutMs: 10 },
        'request',
      ),
    ).toEqual({
      ok: false,
      refusals: [
        { option: 'toolAxes', reason: 'not_in_vocabulary', path: ['a', 'effect'] },
        { option: 'contentOrigin', reason: 'not_deployment_plane', path: [] },
        { option: 'startupTimeoutMs', reason: 'out_of_range', path: [] },
      ],
    });
  });
});
