import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { ValidationErrorEntry } from '../../contract/validation-detail';
import { applyServerErrors } from './apply-server-errors';

const rejected = (...detail: ValidationErrorEntry[]) => new ApiError('The server rejected values', 'http', 422, detail, { detail });
const form = () => ({ setError: vi.fn<(field: string, error: { message?: string }, options?: { shouldFocus?: boolean }) => void>() });
const errorsSet = (target: ReturnType<typeof form>) =>
  Object.fromEntries(target.setError.mock.calls.map(([field, error]) => [field, error.message]));

describe('applyServerErrors', () => {
  it('puts 422 entries on their fields, focusing the first, and returns null when all found one', () => {
    const target = form();
    const problem = applyServerErrors(
      target,
      rejected(
        { type: 'value_error', loc: ['body', 'llm_base_url'], msg: 'Value error, URL must start with http:// or https://' },
        { type: 'greater_than_equal', loc: ['body', 'max_iterations'], msg: 'Input should be greater than or equal to 1', ctx: { ge: 1 } },
      ),
      { isField: (path) => ['llm_base_url', 'max_iterations'].includes(path) },
    );
    expect(problem).toBeNull();
    expect(errorsSet(target)).toEqual({
      llm_base_url: 'URL must start with http:// or https://',
      max_iterations: 'Must be greater than or equal to 1',
    });
    expect(target.setError.mock.calls.map(([, , options]) => options)).toEqual([{ shouldFocus: true }, { shouldFocus: false }]);
  });

  it('returns the entries no field took, with their full loc', () => {
    const target = form();
    const extra = { type: 'extra_forbidden', loc: ['body', 'mcp_config', 'foo'], msg: 'Extra inputs are not permitted' };
    const problem = applyServerErrors(target, rejected({ type: 'missing', loc: ['body', 'llm_model'], msg: 'Field required' }, extra), {
      isField: (path) => path === 'llm_model',
    });
    expect(problem).toEqual({ message: 'Nothing was saved. The server rejected the values marked below, and these:', unmatched: [extra] });
  });

  it('reads locs under a prefix, so nested rows keep working; entries outside it are not the form’s', () => {
    const target = form();
    const other = { type: 'value_error', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'name'], msg: 'Value error, Bad name' };
    const problem = applyServerErrors(
      target,
      rejected(
        { type: 'string_type', loc: ['body', 'mcp_config', 'stdio_servers', 1, 'args', 2], msg: 'Input should be a valid string' },
        other,
      ),
      {
        locPrefix: ['body', 'mcp_config', 'stdio_servers', 1],
        fieldFor: (path) => (path.startsWith('args.') ? `${path}.value` : undefined),
      },
    );
    expect(errorsSet(target)).toEqual({ 'args.2.value': 'Must be a valid string' });
    expect(problem?.unmatched).toEqual([other]);
  });

  it('puts a non-422 response that belongs to a field on it (400 "exists" → name)', () => {
    const target = form();
    const problem = applyServerErrors(target, new ApiError('Secret A already exists', 'http', 400), {
      isField: () => true,
      statusField: { 400: 'name' },
    });
    expect(problem).toBeNull();
    expect(errorsSet(target)).toEqual({ name: 'Secret A already exists' });
  });

  it('does not take a 401 about the session key for a rejected token', () => {
    const target = form();
    const problem = applyServerErrors(target, new ApiError('Unauthorized', 'http', 401, [], { detail: 'Unauthorized' }), {
      isField: () => true,
      statusField: { 401: 'token' },
      verdict: 'Not saved',
    });
    expect(target.setError).not.toHaveBeenCalled();
    expect(problem).toEqual({ message: 'Not saved: Unauthorized', unmatched: [] });
  });

  it('says what went wrong otherwise, with a sentence of its own where given', () => {
    const options = { isField: () => true, statusMessage: { 404: 'This secret was deleted meanwhile.' } };
    expect(applyServerErrors(form(), new ApiError('Cannot reach the server', 'network', 0), options)).toEqual({
      message: 'Nothing was saved: Cannot reach the server',
      unmatched: [],
    });
    expect(applyServerErrors(form(), new ApiError('Not found', 'http', 404), options)?.message).toBe('This secret was deleted meanwhile.');
  });
});
