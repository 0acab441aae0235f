import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { laxBoolean, laxInput, laxInteger, laxNumber } from './lax-input';
import { integer } from '../../src/contract/rules';

// Pydantic v2's conversion table and pydantic-core's str_as_int / str_as_float / str_as_bool.
describe('lax conversions', () => {
  it.each([
    ['5', 5],
    ['5.0', 5],
    ['5.000', 5],
    [' 7 ', 7],
    ['+5', 5],
    ['-5', -5],
    ['007', 7],
    ['1_000', 1000],
    [true, 1],
    [false, 0],
    [5, 5],
  ])('reads %j as the integer %j', (input, expected) => {
    expect(laxInteger(input)).toBe(expected);
  });

  it.each(['5.5', '5.', '.0', 'ten', '1__0', '_1', '1_', '+-1', '--1', '', '0x10', '1e3', 'inf'])(
    'leaves %j for an integer as it came',
    (input) => {
      expect(laxInteger(input)).toBe(input);
    },
  );

  it.each([
    ['5', 5],
    ['5.0', 5],
    ['2.5', 2.5],
    [' 2.5 ', 2.5],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['-1E-3', -0.001],
    ['1_000.5', 1000.5],
    [true, 1],
  ])('reads %j as the number %j', (input, expected) => {
    expect(laxNumber(input)).toBe(expected);
  });

  it.each(['five', '1,5', '', '0x10', 'infinite', '1__0', '_1'])('leaves %j for a number as it came', (input) => {
    expect(laxNumber(input)).toBe(input);
  });

  // read as Rust's f64 parser reads them, so that the schema refuses them as not finite
  it.each([
    ['inf', Infinity],
    [' +Infinity ', Infinity],
    ['-inf', -Infinity],
    ['NaN', NaN],
    ['1e400', Infinity],
  ])('reads %j as the number %j', (input, expected) => {
    expect(laxNumber(input)).toBe(expected);
  });

  it.each([
    ...['true', 'True', 'TRUE', 't', 'T', 'yes', 'Y', 'on', 'ON', '1', 1].map((input) => [input, true] as const),
    ...['false', 'False', 'f', 'no', 'N', 'off', 'Off', '0', 0].map((input) => [input, false] as const),
  ])('reads %j as the boolean %j', (input, expected) => {
    expect(laxBoolean(input)).toBe(expected);
  });

  it.each(['maybe', ' yes', 'yes ', '', '2', 2, -1, 0.5, null])('leaves %j for a boolean as it came', (input) => {
    expect(laxBoolean(input)).toBe(input);
  });
});

describe('laxInput', () => {
  const schema = z.object({
    count: z.optional(z.nullable(integer())),
    ratio: z._default(z.number(), 1),
    flag: z.optional(z.boolean()),
    name: z.optional(z.string()),
    list: z.optional(z.array(integer())),
    map: z.optional(z.record(z.string(), z.boolean())),
    choice: z.optional(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), on: z.boolean() }),
        z.object({ kind: z.literal('b'), size: integer() }),
      ]),
    ),
  });

  it('converts only where the schema wants a number or a boolean', () => {
    const value = {
      count: '3',
      ratio: '0.5',
      flag: 'on',
      name: '5',
      list: ['1', 2, '3.0'],
      map: { a: 'yes', b: 0 },
      choice: { kind: 'b', size: '4' },
      extra: '7',
    };
    expect(laxInput(schema, value)).toEqual({
      count: 3,
      ratio: 0.5,
      flag: true,
      name: '5',
      list: [1, 2, 3],
      map: { a: true, b: false },
      choice: { kind: 'b', size: 4 },
      extra: '7',
    });
    expect(value.count).toBe('3');
  });

  it('returns the same value when nothing converts', () => {
    const value = { count: 3, list: [1], name: 'x' };
    expect(laxInput(schema, value)).toBe(value);
  });

  it('keeps a key such as __proto__ as data', () => {
    const value = JSON.parse('{"map": {"__proto__": "yes"}}') as unknown;
    const converted = laxInput(schema, value) as { map: Record<string, unknown> };
    expect(Object.getPrototypeOf(converted.map)).toBe(Object.prototype);
    expect(Object.hasOwn(converted.map, '__proto__')).toBe(true);
  });

  it('picks the union option the input converts into when none takes it as it is', () => {
    const union = z.union([z.string().check(z.maxLength(1)), integer()]);
    expect(laxInput(union, '12')).toBe(12);
    expect(laxInput(union, '1')).toBe('1');
  });
});
