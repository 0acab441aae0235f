import { INTEGER_EXPECTED } from '../../contract/rules';
import { readableMessage, type ValidationErrorEntry } from '../../contract/validation-error';

type Context = Record<string, unknown>;

const bound = (key: string, words: string) => (ctx: Context) =>
  ctx[key] === undefined ? undefined : `Input should be ${words} ${String(ctx[key])}`;

/**
 * The console's words for the problems Pydantic (OpenHands) and our server both report, by
 * `type` and `ctx`: the same as `issueMessage` gives for the console's own checks. Pydantic adds
 * detail such as "unable to parse string as an integer" that a form does not need.
 */
const BY_TYPE: Record<string, (ctx: Context) => string | undefined> = {
  missing: () => 'Field required',
  int_type: () => INTEGER_EXPECTED,
  int_parsing: () => INTEGER_EXPECTED,
  float_type: () => 'Input should be a valid number',
  float_parsing: () => 'Input should be a valid number',
  bool_type: () => 'Input should be a valid boolean',
  bool_parsing: () => 'Input should be a valid boolean',
  greater_than_equal: bound('ge', 'greater than or equal to'),
  greater_than: bound('gt', 'greater than'),
  less_than_equal: bound('le', 'less than or equal to'),
  less_than: bound('lt', 'less than'),
  string_too_short: (ctx) => (ctx.min_length === undefined ? undefined : `Should have at least ${String(ctx.min_length)} characters`),
  string_too_long: (ctx) => (ctx.max_length === undefined ? undefined : `Should have at most ${String(ctx.max_length)} characters`),
  enum: (ctx) => (typeof ctx.expected === 'string' ? `Input should be ${ctx.expected}` : undefined),
  literal_error: (ctx) => (typeof ctx.expected === 'string' ? `Input should be ${ctx.expected}` : undefined),
};

/** What a person reads for a 422 entry, whichever server sent it; falls back to its `msg`. */
export function serverMessage(entry: ValidationErrorEntry): string {
  return BY_TYPE[entry.type]?.(entry.ctx ?? {}) ?? readableMessage(entry);
}
