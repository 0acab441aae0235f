import type * as z from 'zod/mini';
import { laxBoolean, laxInteger, laxNumber } from './lax-input';
import { describeValues, INTEGER_EXPECTED } from '../../src/contract/rules';
import { type Loc, VALUE_ERROR_PREFIX, type ValidationErrorEntry } from '../../src/contract/validation-detail';

/** Pydantic's type and message for a value of the wrong type, by zod's `expected`. */
const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  number: 'float_type',
  boolean: 'bool_type',
  array: 'list_type',
  object: 'dict_type',
  record: 'dict_type',
  null: 'none_required',
};

const TYPE_MESSAGES: Record<string, string> = {
  int_type: INTEGER_EXPECTED,
  float_type: 'Input should be a valid number',
  bool_type: 'Input should be a valid boolean',
  string_type: 'Input should be a valid string',
  list_type: 'Input should be a valid list',
  dict_type: 'Input should be a valid dictionary',
  none_required: 'Input should be None',
};

/** Pydantic's words when lax mode could not convert a string (or, for a boolean, a whole number). */
const PARSING_MESSAGES = {
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  float_parsing: 'Input should be a valid number, unable to parse string as a number',
  bool_parsing: 'Input should be a valid boolean, unable to interpret input',
} as const;

const entryOf = (type: string, loc: Loc, input: unknown): ValidationErrorEntry => ({
  type,
  loc,
  msg: TYPE_MESSAGES[type] ?? `Input should be a valid ${type.replace(/_type$/, '')}`,
  input,
});

/**
 * Pydantic's `*_parsing` when its lax conversion could not read the input either (`"ten"`), its
 * `*_type` when it would have (`"5"` where the value was not first converted, as in a config file).
 */
function parsingOrType(parsing: keyof typeof PARSING_MESSAGES, lax: (value: unknown) => unknown, loc: Loc, input: unknown) {
  const type = parsing.replace('_parsing', '_type');
  return lax(input) === input ? { type: parsing, loc, msg: PARSING_MESSAGES[parsing], input } : entryOf(type, loc, input);
}

const TOO_LARGE = `Input is too large: integers must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} (2^53 - 1) here`;

/** An input that lax mode reads as an infinite or undefined value (for a number also `"inf"`, `"nan"`, `"1e400"`). */
const notFinite = (input: unknown, lax: (value: unknown) => unknown): boolean => {
  const number = lax(input);
  return typeof number === 'number' && !Number.isFinite(number);
};

function pathToLoc(path: readonly PropertyKey[]): Loc {
  return path.filter((p): p is string | number => typeof p !== 'symbol');
}

function fromIssue(issue: z.core.$ZodIssue, prefix: Loc): ValidationErrorEntry[] {
  const loc = [...prefix, ...pathToLoc(issue.path)];
  const input = issue.input;
  // An absent required field, whatever it should have been (a union of shapes, a choice of values).
  if (input === undefined && (issue.code === 'invalid_union' || issue.code === 'invalid_value') && 'input' in issue) {
    return [{ type: 'missing', loc, msg: 'Field required', input: null }];
  }
  // z.int()'s own bounds: a JavaScript number holds integers exactly up to 2^53 - 1 only (Pydantic takes any size).
  if (issue.code === 'too_big' && issue.origin === 'int' && issue.maximum === Number.MAX_SAFE_INTEGER) {
    return [{ type: 'less_than_equal', loc, msg: TOO_LARGE, input, ctx: { le: Number.MAX_SAFE_INTEGER } }];
  }
  if (issue.code === 'too_small' && issue.origin === 'int' && issue.minimum === Number.MIN_SAFE_INTEGER) {
    return [{ type: 'greater_than_equal', loc, msg: TOO_LARGE, input, ctx: { ge: Number.MIN_SAFE_INTEGER } }];
  }
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return [{ type: 'missing', loc, msg: 'Field required', input: null }];
      const integer = issue.expected === 'int' || issue.message === INTEGER_EXPECTED;
      if ((integer || issue.expected === 'number') && notFinite(input, integer ? laxInteger : laxNumber)) {
        return [{ type: 'finite_number', loc, msg: 'Input should be a finite number', input }];
      }
      if (integer) {
        if (typeof input === 'string') return [parsingOrType('int_parsing', laxInteger, loc, input)];
        return typeof input === 'number'
          ? [{ type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input }]
          : [entryOf('int_type', loc, input)];
      }
      // Strings (and, for booleans, whole numbers) are what Pydantic's lax mode tries to convert.
      if (issue.expected === 'number' && typeof input === 'string') return [parsingOrType('float_parsing', laxNumber, loc, input)];
      if (issue.expected === 'boolean' && (typeof input === 'string' || Number.isInteger(input))) {
        return [parsingOrType('bool_parsing', laxBoolean, loc, input)];
      }
      return [entryOf(TYPE_NAMES[issue.expected] ?? `${issue.expected}_type`, loc, input)];
    }
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const limit = typeof bound === 'bigint' ? Number(bound) : bound;
      if (issue.origin === 'number' || issue.origin === 'int') {
        const small = issue.code === 'too_small';
        const [type, key, words] = small
          ? issue.inclusive
            ? ['greater_than_equal', 'ge', 'greater than or equal to']
            : ['greater_than', 'gt', 'greater than']
          : issue.inclusive
            ? ['less_than_equal', 'le', 'less than or equal to']
            : ['less_than', 'lt', 'less than'];
        return [{ type, loc, msg: `Input should be ${words} ${limit}`, input, ctx: { [key]: limit } }];
      }
      const unit = issue.origin === 'string' ? 'characters' : 'items';
      const [type, words, key] =
        issue.code === 'too_small' ? ['too_short', 'at least', 'min_length'] : ['too_long', 'at most', 'max_length'];
      const msg = `Should have ${words} ${limit} ${unit}`;
      return [{ type: issue.origin === 'string' ? `string_${type}` : type, loc, msg, input, ctx: { [key]: limit } }];
    }
    case 'unrecognized_keys': {
      const parent = (input ?? {}) as Record<string, unknown>;
      return issue.keys.map((key) => ({
        type: 'extra_forbidden',
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        input: parent[key],
      }));
    }
    case 'invalid_value': {
      const expected = describeValues(issue.values);
      return [
        { type: issue.values.length > 1 ? 'enum' : 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } },
      ];
    }
    case 'custom':
      return [{ type: 'value_error', loc, msg: `${VALUE_ERROR_PREFIX}${issue.message}`, input, ctx: { error: {} } }];
    case 'invalid_union': {
      // A discriminated union's tag is wrong: name the values it takes (Pydantic's union_tag_invalid, worded as an enum error).
      const tagged = issue as typeof issue & { discriminator?: string; options?: unknown[] };
      if (tagged.discriminator && tagged.options) {
        const tag = (input as Record<string, unknown> | null)?.[tagged.discriminator];
        const expected = describeValues(tagged.options);
        return [
          {
            type: 'union_tag_invalid',
            loc,
            msg: `Input should be ${expected}`,
            input: tag,
            ctx: { discriminator: `'${tagged.discriminator}'`, expected },
          },
        ];
      }
      return [{ type: 'union_error', loc, msg: 'Input does not match any of the allowed shapes', input }];
    }
    case 'invalid_key':
      // Pydantic names a map key's own problem at `[…, key, "[key]"]`.
      return issue.issues.flatMap((inner) => fromIssue({ ...inner, path: [] } as z.core.$ZodIssue, [...loc, '[key]']));
    case 'invalid_element':
      return issue.issues.flatMap((inner) => fromIssue({ ...inner, path: [] } as z.core.$ZodIssue, loc));
    case 'invalid_format':
      return [{ type: 'string_pattern_mismatch', loc, msg: `Input should be a valid ${issue.format}`, input }];
    case 'not_multiple_of': {
      const step = Number(issue.divisor);
      return [{ type: 'multiple_of', loc, msg: `Input should be a multiple of ${step}`, input, ctx: { multiple_of: step } }];
    }
  }
}

/**
 * Turns zod issues into Pydantic-style entries (types and messages as FastAPI would send them), so
 * the server responds like OpenHands and the console shows the same words for its own checks.
 * `prefix` is where the validated value sits, e.g. `["body"]`.
 */
export function toValidationDetail(issues: readonly z.core.$ZodIssue[], prefix: Loc = []): ValidationErrorEntry[] {
  return issues.flatMap((issue) => fromIssue(issue, prefix));
}
