import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from './rules';
import { consoleMessage, inConsoleWords, issueMessage, toValidationDetail } from './validation-error';

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
  ])('words %j as the console does', (entry, schema, value) => {
    expect(consoleMessage(entry)).toBe(consoleSays(schema, value)?.replace(/^a: /, ''));
  });

  it("reads in one style, never Pydantic's: bounds, types, lengths and choices", () => {
    expect(
      [
        { type: 'greater_than', loc: [], msg: 'Input should be greater than 0', ctx: { gt: 0 } },
        { type: 'greater_than_equal', loc: [], msg: 'Input should be greater than or equal to 1', ctx: { ge: 1 } },
        { type: 'less_than_equal', loc: [], msg: 'Input should be less than or equal to 3600', ctx: { le: 3600 } },
        { type: 'int_parsing', loc: [], msg: 'Input should be a valid integer, unable to parse string as an integer' },
        { type: 'string_type', loc: [], msg: 'Input should be a valid string' },
        { type: 'string_too_long', loc: [], msg: 'String should have at most 255 characters', ctx: { max_length: 255 } },
        { type: 'enum', loc: [], msg: "Input should be 'a' or 'b'", ctx: { expected: "'a' or 'b'" } },
        { type: 'missing', loc: [], msg: 'Field required' },
        { type: 'extra_forbidden', loc: [], msg: 'Extra inputs are not permitted' },
      ].map(consoleMessage),
    ).toEqual([
      'Must be more than 0',
      'Must be at least 1',
      'Must be at most 3600',
      'Must be a whole number',
      'Must be text',
      'Must have at most 255 characters',
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
  });

  it('words what our server sends without ctx as Pydantic sends it with', () => {
    expect(consoleMessage({ type: 'string_too_long', loc: [], msg: 'Should have at most 255 characters' })).toBe(
      'Must have at most 255 characters',
    );
    expect(consoleMessage({ type: 'multiple_of', loc: [], msg: 'Input should be a multiple of 5' })).toBe('Must be a multiple of 5');
  });

  it('falls back to msg, without Pydantic’s "Value error, "', () => {
    expect(consoleMessage({ type: 'value_error', loc: [], msg: 'Value error, URL must include a valid domain/host' })).toBe(
      'URL must include a valid domain/host',
    );
    expect(consoleMessage({ type: 'greater_than', loc: [], msg: 'Too small' })).toBe('Too small');
  });
});

/** The entry for `value` checked by `schema` as it is, without the server's lax pre-pass (as a config file is). */
const detailOf = (schema: z.ZodMiniType, value: unknown) => {
  const [entry] = toValidationDetail(z.safeParse(schema, value, { reportInput: true }).error?.issues ?? []);
  return entry && { type: entry.type, msg: entry.msg };
};

type Case = [schema: z.ZodMiniType, input: unknown, type: string, msg: string];

describe('toValidationDetail', () => {
  it.each<Case>([
    // what lax mode would have converted is a plain type error, not "unable to parse"
    [integer(), '5', 'int_type', 'Input should be a valid integer'],
    [z.number(), '5', 'float_type', 'Input should be a valid number'],
    [z.boolean(), 'yes', 'bool_type', 'Input should be a valid boolean'],
    [z.boolean(), 1, 'bool_type', 'Input should be a valid boolean'],
    // what lax mode cannot read either
    [integer(), '5.5', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    [z.number(), 'five', 'float_parsing', 'Input should be a valid number, unable to parse string as a number'],
    [z.boolean(), 'maybe', 'bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
    [z.boolean(), 2, 'bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
    [z.boolean(), 0.5, 'bool_type', 'Input should be a valid boolean'],
    [integer(), 5.5, 'int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
    [integer(), [], 'int_type', 'Input should be a valid integer'],
    [z.string(), 5, 'string_type', 'Input should be a valid string'],
    // not finite, whether sent as a string or a number
    ...[Infinity, NaN, 'inf', '-Infinity', 'nan', '1e400'].map((input): Case => [
      z.number(),
      input,
      'finite_number',
      'Input should be a finite number',
    ]),
    [integer(), Infinity, 'finite_number', 'Input should be a finite number'],
    [integer(), 'inf', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
    // beyond what a JavaScript number holds exactly: said so, not zod's bound as if it were the field's
    [
      integer(),
      2 ** 53,
      'less_than_equal',
      'Input is too large: integers must be between -9007199254740991 and 9007199254740991 (2^53 - 1) here',
    ],
    [
      integer(),
      -(2 ** 53),
      'greater_than_equal',
      'Input is too large: integers must be between -9007199254740991 and 9007199254740991 (2^53 - 1) here',
    ],
  ])('answers case %#', (schema, input, type, msg) => {
    expect(detailOf(schema, input)).toEqual({ type, msg });
  });
});
