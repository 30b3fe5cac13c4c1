import { problemFromResponse } from './api-problem';
import { detailInWords, fieldLabel, messageInWords, problemInWords } from './problem-words';

describe('messageInWords', () => {
  it.each([
    ['Too small: expected array to have >=1 items', 'Choose or add at least one item.'],
    ['Too small: expected string to have >=1 characters', 'Enter a value.'],
    ['Too big: expected string to have <=100 characters', 'Shorten it to at most 100 characters.'],
    ['Too small: expected array to have >=3 items', 'Use at least 3 items.'],
    ['Too big: expected number to be <=200', 'Enter a number of at most 200.'],
    ['Invalid input: expected string, received undefined', 'Fill this in: it is required.'],
    ['Invalid input: expected array, received string', 'Enter a list here.'],
    ['Invalid email address', 'Enter an email address such as name@example.com.'],
    ['Invalid option: expected one of "user"|"agent"', 'Choose one of: user, agent.'],
    ['Unrecognized key: "stdio"', 'Remove "stdio": it is not a field here.'],
  ])('rewrites the validator’s %j', (raw, words) => {
    expect(messageInWords(raw)).toBe(words);
  });

  it('keeps a message written for people, as a sentence', () => {
    expect(messageInWords('letters, digits and underscore; does not start with a digit')).toBe(
      'Letters, digits and underscore; does not start with a digit.',
    );
    expect(messageInWords('Line 3 is outside the ceiling of every worker pool open to this tenant.')).toBe(
      'Line 3 is outside the ceiling of every worker pool open to this tenant.',
    );
  });
});

describe('fieldLabel', () => {
  it('names a field by its label, never by its key', () => {
    expect(fieldLabel('stdioCommands')).toBe('Stdio commands');
    expect(fieldLabel('stdioCommands.2')).toBe('Stdio commands › item 3');
    expect(fieldLabel('someNewField')).toBe('Some new field');
    expect(fieldLabel('document.mcpServers.docs.url')).toBe('Document › mcpServers › docs › url');
    expect(fieldLabel('name', { name: 'Variable name' })).toBe('Variable name');
    expect(fieldLabel('')).toBe('The form');
  });
});

describe('problemInWords', () => {
  it('turns a validation problem into labelled fields and a next step, without the API’s boilerplate', () => {
    const words = problemInWords(
      problemFromResponse(400, {
        code: 'validation_failed',
        title: 'Validation failed',
        detail: 'The input does not match the command.',
        errors: [{ path: 'scopes', message: 'Too small: expected array to have >=1 items' }],
      }),
    );
    expect(words).toEqual({
      title: 'Some fields need attention',
      detail: null,
      nextStep: 'Correct the fields named here, then send the form again.',
      fields: [{ path: 'scopes', label: 'Scopes', message: 'Choose or add at least one item.' }],
    });
    expect(JSON.stringify(words)).not.toMatch(/Too small|>=/);
  });

  it('says what a 414 without a problem body means and what to do', () => {
    const words = problemInWords(problemFromResponse(414, '<html>'));
    expect(words.title).toBe('What you typed is too long for the API');
    expect(words.nextStep).toContain('at most 100 characters');
    expect(JSON.stringify(words)).not.toContain('Unexpected answer');
  });

  it('gives every problem a next step, by code or by status', () => {
    const base = { title: 'x', detail: null, errors: [], tenants: [] };
    expect(problemInWords({ ...base, code: 'conflict', status: 409 }).nextStep).toMatch(/reload/i);
    expect(problemInWords({ ...base, code: 'unprocessable_content', status: 422 }).nextStep).toBe(
      'Check what you entered, then try again.',
    );
    expect(problemInWords({ ...base, code: 'dependency_unavailable', status: 503 }).nextStep).toMatch(
      /Try again/,
    );
  });
});

describe('detailInWords', () => {
  it('names the fields a detail quotes by their labels, leaving ordinary words alone', () => {
    expect(
      detailInWords('stdioCommands.0 is outside the ceiling of every worker pool open to this tenant.'),
    ).toBe('Stdio commands › item 1 is outside the ceiling of every worker pool open to this tenant.');
    expect(detailInWords('The name is taken; privateCidrs is empty.')).toBe(
      'The name is taken; Private ranges is empty.',
    );
  });
});
