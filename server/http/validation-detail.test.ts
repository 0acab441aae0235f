import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from '../../src/contract/rules';
import { toValidationDetail } from './validation-detail';

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
  ])('responds as Pydantic does, case %#', (schema, input, type, msg) => {
    expect(detailOf(schema, input)).toEqual({ type, msg });
  });
});
