import { childEnvironment } from './child-environment';

describe('childEnvironment', () => {
  const input = { searchPath: '/opt/operator/bin:/usr/bin', home: '/tmp/gatehouse-child-home-x' };

  it('is the baseline and the definition env, nothing else', () => {
    expect(childEnvironment({ ...input, env: { API_KEY: 'k' } })).toEqual({
      API_KEY: 'k',
      HOME: '/tmp/gatehouse-child-home-x',
      LOGNAME: '',
      PATH: '/opt/operator/bin:/usr/bin',
      SHELL: '',
      TERM: '',
      USER: '',
    });
  });

  it('sets the baseline after the definition env: no definition replaces HOME, PATH, SHELL, USER, LOGNAME or TERM', () => {
    const env = childEnvironment({
      ...input,
      env: {
        HOME: '/tmp/evil',
        PATH: '/tmp/evil',
        SHELL: '/bin/sh',
        USER: 'root',
        LOGNAME: 'root',
        TERM: 'x',
      },
    });
    expect(env).toEqual({
      HOME: '/tmp/gatehouse-child-home-x',
      LOGNAME: '',
      PATH: '/opt/operator/bin:/usr/bin',
      SHELL: '',
      TERM: '',
      USER: '',
    });
  });
});
