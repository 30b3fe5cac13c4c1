import { problemFromResponse } from './api-problem';

describe('problemFromResponse', () => {
  it('keeps the code, title, detail, field errors and tenant choices of a problem document', () => {
    const problem = problemFromResponse(400, {
      type: 'urn:gatehouse:problem:validation_failed',
      code: 'validation_failed',
      title: 'Validation failed',
      detail: 'The input does not match the command.',
      errors: [{ path: 'name', message: 'Too long' }, { nope: true }],
      tenants: ['acme', 42],
    });
    expect(problem).toEqual({
      code: 'validation_failed',
      title: 'Validation failed',
      status: 400,
      detail: 'The input does not match the command.',
      errors: [{ path: 'name', message: 'Too long' }],
      tenants: ['acme'],
    });
  });

  it('reports a body without a usable code as api_bad_response, never echoing it', () => {
    const problem = problemFromResponse(502, '<html>Bad gateway</html>');
    expect(problem.code).toBe('api_bad_response');
    expect(problem.status).toBe(502);
    expect(JSON.stringify(problem)).not.toContain('html');
    expect(problemFromResponse(500, { code: 'Not A Code!' }).code).toBe('api_bad_response');
  });

  it('takes only the codes of the one list, matched exactly (no pattern, no synonym)', () => {
    expect(problemFromResponse(401, { code: 'unauthenticated', title: 'Signed out' }).code).toBe('unauthenticated');
    for (const code of ['unauthorized', 'too_many_requests', 'looks_like_a_code', 'not_found ', 'NOT_FOUND']) {
      const problem = problemFromResponse(400, { code, title: 'x' });
      expect(problem.code).toBe('api_bad_response');
      expect(JSON.stringify(problem)).not.toContain(code);
    }
  });

  it('bounds the text it keeps', () => {
    const problem = problemFromResponse(409, { code: 'conflict', title: 'x'.repeat(10_000) });
    expect(problem.title.length).toBeLessThanOrEqual(500);
  });
});
