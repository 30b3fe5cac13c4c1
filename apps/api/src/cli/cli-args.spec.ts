import { list, parseCommandArgs } from './cli-args';

describe('parseCommandArgs', () => {
  const options = { name: { type: 'string' as const }, json: { type: 'boolean' as const, default: false } };

  it('parses known options', () => {
    expect(parseCommandArgs(['--name', 'Acme', '--json'], options)).toEqual({ name: 'Acme', json: true });
  });

  it('refuses a password in argv, in either spelling, without echoing it', () => {
    for (const args of [['--password', 's3cret-value'], ['--password=s3cret-value']]) {
      expect(() => parseCommandArgs(args, options)).toThrow(/--password-stdin or --password-env/);
      try {
        parseCommandArgs(args, options);
      } catch (error) {
        expect((error as Error).message).not.toContain('s3cret-value');
      }
    }
  });

  it('never echoes a stray positional (it could be a secret typed in the wrong place)', () => {
    expect(() => parseCommandArgs(['--name', 'x', 'hunter2hunter2'], options)).toThrow('unexpected argument');
    expect(() => parseCommandArgs(['--name', 'x', 'hunter2hunter2'], options)).not.toThrow(/hunter2/);
  });

  it('names an unknown option and a missing value', () => {
    expect(() => parseCommandArgs(['--force'], options)).toThrow('unknown option --force');
    expect(() => parseCommandArgs(['--name'], options)).toThrow('option --name needs a value');
  });
});

describe('list', () => {
  it('splits on commas and drops blanks', () => {
    expect(list(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(list(undefined)).toEqual([]);
  });
});
