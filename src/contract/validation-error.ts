import * as z from 'zod/mini';
import { describeValues, INTEGER_EXPECTED } from './rules';

/**
 * One entry of a FastAPI/Pydantic validation error, the shape OpenHands answers 422s with:
 * `{"detail": [{type, loc, msg, input, ctx?}]}`. Our server produces it from zod issues with
 * `toValidationDetail`; the console parses it and maps `loc` onto form fields.
 */
export const validationErrorEntrySchema = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  input: z.optional(z.unknown()),
  ctx: z.optional(z.record(z.string(), z.unknown())),
});
export type ValidationErrorEntry = z.infer<typeof validationErrorEntrySchema>;

export const validationErrorBodySchema = z.object({ detail: z.array(validationErrorEntrySchema) });

export type Loc = ValidationErrorEntry['loc'];

const VALUE_ERROR_PREFIX = 'Value error, ';

/** The message a person should read: Pydantic's "Value error, " prefix is noise in a form. */
export function readableMessage(entry: Pick<ValidationErrorEntry, 'msg'>): string {
  return entry.msg.startsWith(VALUE_ERROR_PREFIX) ? entry.msg.slice(VALUE_ERROR_PREFIX.length) : entry.msg;
}

const TYPE_NAMES: Record<string, [type: string, msg: string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  null: ['none_required', 'Input should be None'],
};

/** Pydantic's words when lax mode could not convert a string (or, for a boolean, a number). */
const PARSING_MESSAGES = {
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  float_parsing: 'Input should be a valid number, unable to parse string as a number',
  bool_parsing: 'Input should be a valid boolean, unable to interpret input',
} as const;

/** A form needs no "unable to parse string": the console words these as the plain type error. */
const CONSOLE_WORDS: Record<string, string> = {
  int_parsing: INTEGER_EXPECTED,
  float_parsing: 'Input should be a valid number',
  bool_parsing: 'Input should be a valid boolean',
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
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return [{ type: 'missing', loc, msg: 'Field required', input: null }];
      const integer = issue.expected === 'int' || issue.message === INTEGER_EXPECTED;
      if ((integer || issue.expected === 'number') && typeof input === 'number' && !Number.isFinite(input)) {
        return [{ type: 'finite_number', loc, msg: 'Input should be a finite number', input }];
      }
      if (integer) {
        if (typeof input === 'string') return [{ type: 'int_parsing', loc, msg: PARSING_MESSAGES.int_parsing, input }];
        return typeof input === 'number'
          ? [{ type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input }]
          : [{ type: 'int_type', loc, msg: INTEGER_EXPECTED, input }];
      }
      // Strings (and, for booleans, numbers) are what Pydantic's lax mode tries to convert: it says it could not.
      if (issue.expected === 'number' && typeof input === 'string') {
        return [{ type: 'float_parsing', loc, msg: PARSING_MESSAGES.float_parsing, input }];
      }
      if (issue.expected === 'boolean' && (typeof input === 'string' || typeof input === 'number')) {
        return [{ type: 'bool_parsing', loc, msg: PARSING_MESSAGES.bool_parsing, input }];
      }
      const [type, msg] = TYPE_NAMES[issue.expected] ?? [`${issue.expected}_type`, `Input should be a valid ${issue.expected}`];
      return [{ type, loc, msg, input }];
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
      const [type, words] = issue.code === 'too_small' ? ['too_short', 'at least'] : ['too_long', 'at most'];
      return [{ type: issue.origin === 'string' ? `string_${type}` : type, loc, msg: `Should have ${words} ${limit} ${unit}`, input }];
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
    case 'not_multiple_of':
      return [{ type: 'multiple_of', loc, msg: `Input should be a multiple of ${String(issue.divisor)}`, input }];
  }
}

/**
 * Turns zod issues into Pydantic-style entries (types and messages as FastAPI would answer), so
 * the server answers like OpenHands and the console shows the same words for its own checks.
 * `prefix` is where the validated value sits, e.g. `["body"]`.
 */
export function toValidationDetail(issues: readonly z.core.$ZodIssue[], prefix: Loc = []): ValidationErrorEntry[] {
  return issues.flatMap((issue) => fromIssue(issue, prefix));
}

/**
 * The message for one zod issue in the same words the server would use. Pass it as the parse
 * `error` option (zod/mini carries no message texts of its own); schema-level messages win.
 */
export function issueMessage(issue: Omit<z.core.$ZodRawIssue, 'path'> & { path?: PropertyKey[] }): string | undefined {
  const [entry] = fromIssue({ ...issue, path: [], message: '' } as unknown as z.core.$ZodIssue, []);
  return entry ? (CONSOLE_WORDS[entry.type] ?? readableMessage(entry)) : undefined;
}
