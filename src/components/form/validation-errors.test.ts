import { describe, expect, it } from 'vitest';
import { mapValidationErrors, nearestField } from './validation-errors';

const fields = new Set(['llm_model', 'max_iterations', 'mcp_config.stdio_servers.0.name', 'mcp_config.stdio_servers.0.env']);
const isField = nearestField((path: string) => fields.has(path));

describe('mapValidationErrors', () => {
  it('maps body locs onto fields in the console\'s words, without the "Value error, " prefix', () => {
    const result = mapValidationErrors(
      [
        { type: 'string_type', loc: ['body', 'llm_model'], msg: 'Input should be a valid string', input: 1 },
        {
          type: 'value_error',
          loc: ['body', 'mcp_config', 'stdio_servers', 0, 'name'],
          msg: 'Value error, Server name cannot be empty',
          input: '',
        },
      ],
      isField,
    );
    expect(result.fieldErrors).toEqual([
      { field: 'llm_model', message: 'Must be a valid string' },
      { field: 'mcp_config.stdio_servers.0.name', message: 'Server name cannot be empty' },
    ]);
    expect(result.unmatched).toEqual([]);
  });

  it('uses the nearest enclosing field for deeper locs', () => {
    const result = mapValidationErrors(
      [{ type: 'string_type', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'env', 'A'], msg: 'Input should be a valid string' }],
      isField,
    );
    expect(result.fieldErrors).toEqual([{ field: 'mcp_config.stdio_servers.0.env', message: 'Must be a valid string' }]);
  });

  it('keeps entries that name no field for the alert, including the body itself', () => {
    const entries = [
      { type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error' },
      { type: 'missing', loc: ['body'], msg: 'Field required' },
      { type: 'extra_forbidden', loc: ['body', 'mcp_config', 'foo'], msg: 'Extra inputs are not permitted' },
    ];
    const result = mapValidationErrors(entries, isField);
    expect(result.fieldErrors).toEqual([]);
    expect(result.unmatched).toEqual(entries);
  });

  it('joins several messages for one field and drops repeats', () => {
    const result = mapValidationErrors(
      [
        { type: 'a', loc: ['body', 'max_iterations'], msg: 'First.' },
        { type: 'b', loc: ['body', 'max_iterations'], msg: 'Second.' },
        { type: 'b', loc: ['body', 'max_iterations'], msg: 'Second.' },
      ],
      isField,
    );
    expect(result.fieldErrors).toEqual([{ field: 'max_iterations', message: 'First. Second.' }]);
  });

  it('accepts locs without the body prefix (client-side issues)', () => {
    expect(mapValidationErrors([{ type: 'x', loc: ['llm_model'], msg: 'Bad' }], isField).fieldErrors).toEqual([
      { field: 'llm_model', message: 'Bad' },
    ]);
  });
});
