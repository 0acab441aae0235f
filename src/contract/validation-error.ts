import * as z from 'zod/mini';
import { laxBoolean, laxInteger, laxNumber } from './lax-input';
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
 * The message for one zod issue in the console's words, as a server's 422 for the same problem
 * reads (`consoleMessage`). Pass it as the parse `error` option (zod/mini carries no message
 * texts of its own); schema-level messages win.
 */
export function issueMessage(issue: Omit<z.core.$ZodRawIssue, 'path'> & { path?: PropertyKey[] }): string | undefined {
  const [entry] = fromIssue({ ...issue, path: [] } as unknown as z.core.$ZodIssue, []);
  return entry ? consoleMessage(entry) : undefined;
}

type Context = Record<string, unknown>;

const when =
  (key: string, words: (value: string) => string) =>
  (ctx: Context): string | undefined =>
    ctx[key] === undefined ? undefined : words(String(ctx[key]));

const WHOLE_NUMBER = 'Must be a whole number';
const NUMBER = 'Must be a number';
const TRUE_OR_FALSE = 'Must be true or false';

/**
 * The console's words for the problems Pydantic (OpenHands) and our server both report, by
 * `type` and `ctx`: the wire keeps Pydantic's `msg`, a person reads one style, whichever server
 * sent it or whether the console's own check found it.
 */
const BY_TYPE: Record<string, (ctx: Context) => string | undefined> = {
  missing: () => 'Required',
  int_type: () => WHOLE_NUMBER,
  int_parsing: () => WHOLE_NUMBER,
  int_from_float: () => WHOLE_NUMBER,
  float_type: () => NUMBER,
  float_parsing: () => NUMBER,
  finite_number: () => 'Must be a finite number',
  bool_type: () => TRUE_OR_FALSE,
  bool_parsing: () => TRUE_OR_FALSE,
  string_type: () => 'Must be text',
  list_type: () => 'Must be a list',
  dict_type: () => 'Must be an object',
  none_required: () => 'Must be empty',
  extra_forbidden: () => 'Unknown field',
  greater_than_equal: when('ge', (ge) => `Must be at least ${ge}`),
  greater_than: when('gt', (gt) => `Must be more than ${gt}`),
  less_than_equal: when('le', (le) => `Must be at most ${le}`),
  less_than: when('lt', (lt) => `Must be less than ${lt}`),
  multiple_of: when('multiple_of', (step) => `Must be a multiple of ${step}`),
  string_too_short: when('min_length', (min) => `Must have at least ${min} characters`),
  string_too_long: when('max_length', (max) => `Must have at most ${max} characters`),
  too_short: when('min_length', (min) => `Must have at least ${min} items`),
  too_long: when('max_length', (max) => `Must have at most ${max} items`),
  enum: when('expected', (expected) => `Must be ${expected}`),
  literal_error: when('expected', (expected) => `Must be ${expected}`),
  union_tag_invalid: when('expected', (expected) => `Must be ${expected}`),
};

/** The console's words for Pydantic's message for a type (`Input should be a valid integer`, a check's own message too). */
const BY_MESSAGE = new Map(Object.entries(TYPE_MESSAGES).map(([type, msg]) => [msg, BY_TYPE[type]?.({}) ?? msg]));

/**
 * A message in the console's words where its type alone cannot say it: Pydantic's phrasing
 * (`Input should be …`, `Should have …`) and a sentence that starts with the field's own name
 * (`condenser_max_size must be at least 20`, shown at that field) read `Must …`.
 */
export function inConsoleWords(message: string): string {
  return (
    BY_MESSAGE.get(message) ??
    message.replace(/^(?:Input should|Should)\b/, 'Must').replace(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+ must\b/, 'Must')
  );
}

/** What a person reads for a 422 entry, whichever server sent it: the console's words, else its own `msg`. */
export function consoleMessage(entry: ValidationErrorEntry): string {
  return BY_TYPE[entry.type]?.(entry.ctx ?? {}) ?? inConsoleWords(readableMessage(entry));
}
