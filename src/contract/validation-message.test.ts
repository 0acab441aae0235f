import { describe, expect, it } from 'vitest';
import { consoleMessage, inConsoleWords } from './validation-message';

describe('consoleMessage', () => {
  it("reads in one style, never Pydantic's: bounds, types, lengths and choices", () => {
    expect(
      [
        { type: 'greater_than', loc: [], msg: 'Input should be greater than 0', ctx: { gt: 0 } },
        { type: 'greater_than_equal', loc: [], msg: 'Input should be greater than or equal to 1', ctx: { ge: 1 } },
        { type: 'int_parsing', loc: [], msg: 'Input should be a valid integer, unable to parse string as an integer' },
        { type: 'int_from_float', loc: [], msg: 'Input should be a valid integer, got a number with a fractional part' },
        { type: 'string_type', loc: [], msg: 'Input should be a valid string' },
        { type: 'string_too_long', loc: [], msg: 'String should have at most 255 characters', ctx: { max_length: 255 } },
        { type: 'too_short', loc: [], msg: 'List should have at least 1 item after validation, not 0' },
        { type: 'enum', loc: [], msg: "Input should be 'a' or 'b'", ctx: { expected: "'a' or 'b'" } },
        { type: 'missing', loc: [], msg: 'Field required' },
        { type: 'extra_forbidden', loc: [], msg: 'Extra inputs are not permitted' },
      ].map(consoleMessage),
    ).toEqual([
      'Must be greater than 0',
      'Must be greater than or equal to 1',
      'Must be a valid integer',
      'Must be a valid integer',
      'Must be a valid string',
      'Must have at most 255 characters',
      'Must have at least 1 item after validation, not 0',
      "Must be 'a' or 'b'",
      'Required',
      'Unknown field',
    ]);
  });

  it('words a rule that names its own field as the bounds are (the field is where it shows)', () => {
    const condenser = {
      type: 'value_error',
      loc: ['body', 'condenser_max_size'],
      msg: 'Value error, condenser_max_size must be at least 20',
    };
    expect(consoleMessage(condenser)).toBe('Must be at least 20');
    expect(inConsoleWords('condenser_max_size must be at least 20')).toBe('Must be at least 20');
  });

  it('falls back to msg, without Pydantic’s "Value error, "', () => {
    expect(consoleMessage({ type: 'value_error', loc: [], msg: 'Value error, URL must include a valid domain/host' })).toBe(
      'URL must include a valid domain/host',
    );
    expect(consoleMessage({ type: 'greater_than', loc: [], msg: 'Too small' })).toBe('Too small');
  });
});
