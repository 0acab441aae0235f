import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from './rules';
import { consoleMessage, inConsoleWords, issueMessage } from './validation-message';

/** What the console's own check says (its form resolvers put each message in the console's words). */
const consoleSays = (schema: z.ZodMiniType, value: unknown) => {
  const message = z.safeParse(schema, value, { error: issueMessage }).error?.issues[0]?.message;
  return message === undefined ? undefined : inConsoleWords(message);
};

describe('consoleMessage', () => {
  it.each([
    // what Pydantic (OpenHands) sends, and what the console's own check says for the same problem
    [{ type: 'int_parsing', loc: [], msg: 'Input should be a valid integer, unable to parse string as an integer' }, integer(), 'x'],
    [
      { type: 'greater_than_equal', loc: [], msg: 'Input should be greater than or equal to 1', ctx: { ge: 1 } },
      integer().check(z.gte(1)),
      0,
    ],
    [{ type: 'greater_than', loc: [], msg: 'Input should be greater than 0', ctx: { gt: 0 } }, z.number().check(z.gt(0)), -1],
    [{ type: 'missing', loc: [], msg: 'Field required' }, z.object({ a: z.string() }), {}],
    [
      { type: 'string_too_long', loc: [], msg: 'String should have at most 3 characters', ctx: { max_length: 3 } },
      z.string().check(z.maxLength(3)),
      'abcd',
    ],
    [{ type: 'enum', loc: [], msg: "Input should be 'a' or 'b'", ctx: { expected: "'a' or 'b'" } }, z.enum(['a', 'b']), 'c'],
    [{ type: 'extra_forbidden', loc: [], msg: 'Extra inputs are not permitted' }, z.strictObject({}), { x: 1 }],
    [{ type: 'bool_parsing', loc: [], msg: 'Input should be a valid boolean, unable to interpret input' }, z.boolean(), 'maybe'],
    [{ type: 'list_type', loc: [], msg: 'Input should be a valid list' }, z.array(z.string()), 'x'],
  ])('words %j as the console does', (entry, schema, value) => {
    expect(consoleMessage(entry)).toBe(consoleSays(schema, value)?.replace(/^a: /, ''));
  });

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
