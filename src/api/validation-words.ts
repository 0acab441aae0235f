import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type * as z from 'zod/mini';
import type { ValidationErrorEntry } from '../contract/validation-detail';
import { INTEGER_EXPECTED } from '../contract/rules';
import { consoleMessage } from '../contract/validation-message';

/*
 * What a person reads for a validation problem, in the console's language. Pydantic's `type` and
 * `ctx` (what OpenHands and our server send in a 422, and what the console's own check finds) say
 * the problem; the words are the console's. A problem of a kind not known here (a server's own
 * check, `value_error`) is shown in the server's words.
 */

type Ctx = Record<string, unknown>;

/*
 * The words for each kind of problem the console knows, and the `ctx` key of the number (or the
 * choices) they name as `{limit}`: a table of descriptors, filled in when shown.
 */
const WORDS: Record<string, [MessageDescriptor, string?]> = {
  missing: [msg`Required`],
  extra_forbidden: [msg`Unknown field`],
  int_type: [msg`Must be a valid integer`],
  float_type: [msg`Must be a valid number`],
  finite_number: [msg`Must be a finite number`],
  bool_type: [msg`Must be a valid boolean`],
  string_type: [msg`Must be a valid string`],
  list_type: [msg`Must be a valid list`],
  dict_type: [msg`Must be a valid dictionary`],
  string_pattern_mismatch: [msg`Not in the expected format`],
  greater_than: [msg`Must be greater than {limit}`, 'gt'],
  greater_than_equal: [msg`Must be greater than or equal to {limit}`, 'ge'],
  less_than: [msg`Must be less than {limit}`, 'lt'],
  less_than_equal: [msg`Must be less than or equal to {limit}`, 'le'],
  multiple_of: [msg`Must be a multiple of {limit}`, 'multiple_of'],
  string_too_short: [msg`{limit, plural, one {Must have at least # character} other {Must have at least # characters}}`, 'min_length'],
  string_too_long: [msg`{limit, plural, one {Must have at most # character} other {Must have at most # characters}}`, 'max_length'],
  too_short: [msg`{limit, plural, one {Must have at least # item} other {Must have at least # items}}`, 'min_length'],
  too_long: [msg`{limit, plural, one {Must have at most # item} other {Must have at most # items}}`, 'max_length'],
  enum: [msg`Must be {limit}`, 'expected'],
};
/** Kinds worded as another is. */
const ALIASES: Record<string, string> = {
  int_parsing: 'int_type',
  int_from_float: 'int_type',
  float_parsing: 'float_type',
  bool_parsing: 'bool_type',
  literal_error: 'enum',
};

/** A descriptor's words with its `{limit}` filled in (its message is the fallback where no catalog is loaded, as in tests). */
const filledIn = ({ id, message }: MessageDescriptor, limit: number | string) => i18n._(id, { limit }, { message });

/** The words for a kind of problem, or `undefined` when it is not known here or its `ctx` lacks what they name. */
function wordsFor(type: string, ctx: Ctx): string | undefined {
  const known = WORDS[ALIASES[type] ?? type];
  if (!known) return undefined;
  const [message, key] = known;
  if (!key) return i18n._(message);
  const limit = ctx[key];
  // A plural counts the number itself; elsewhere it reads as the language writes numbers.
  if (typeof limit === 'number' && Number.isFinite(limit)) return filledIn(message, key.endsWith('_length') ? limit : i18n.number(limit));
  return typeof limit === 'string' ? filledIn(message, limit) : undefined;
}

/** What a person reads for one entry of a 422's `detail`, whichever server sent it. */
export function validationWords(entry: ValidationErrorEntry): string {
  return wordsFor(entry.type, entry.ctx ?? {}) ?? consoleMessage(entry);
}

/** `'a', 'b' or 'c'` in the console's language. */
const choices = (values: readonly unknown[]): string =>
  new Intl.ListFormat(i18n.locale, { type: 'disjunction' }).format(values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))));

/** The entry a server would send for a zod issue, as far as the words need: its `type` and `ctx`. */
function entryOf(issue: z.core.$ZodRawIssue): Pick<ValidationErrorEntry, 'type' | 'ctx'> | undefined {
  if (issue.input === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? ''))
    return { type: 'missing' };
  switch (issue.code) {
    case 'invalid_type': {
      if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return { type: 'finite_number' };
      const type = { int: 'int_type', number: 'float_type', boolean: 'bool_type', string: 'string_type', array: 'list_type' }[
        issue.expected as string
      ];
      return type ? { type } : issue.expected === 'object' || issue.expected === 'record' ? { type: 'dict_type' } : undefined;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = Number(small ? issue.minimum : issue.maximum);
      if (issue.origin === 'number' || issue.origin === 'int') {
        if (small)
          return issue.inclusive ? { type: 'greater_than_equal', ctx: { ge: limit } } : { type: 'greater_than', ctx: { gt: limit } };
        return issue.inclusive ? { type: 'less_than_equal', ctx: { le: limit } } : { type: 'less_than', ctx: { lt: limit } };
      }
      const prefix = issue.origin === 'string' ? 'string_' : '';
      return small ? { type: `${prefix}too_short`, ctx: { min_length: limit } } : { type: `${prefix}too_long`, ctx: { max_length: limit } };
    }
    case 'invalid_value':
      return { type: 'enum', ctx: { expected: choices(issue.values) } };
    case 'unrecognized_keys':
      return { type: 'extra_forbidden' };
    case 'not_multiple_of':
      return { type: 'multiple_of', ctx: { multiple_of: Number(issue.divisor) } };
    case 'invalid_format':
      return { type: 'string_pattern_mismatch' };
    default:
      return undefined;
  }
}

/**
 * The console's own check's message for a zod issue, in the words a server's 422 for the same
 * problem is shown in. Pass it as the parse `error` option; a check's own message (a `rule`) wins.
 */
export function issueWords(issue: z.core.$ZodRawIssue): string | undefined {
  const entry = entryOf(issue);
  return (entry && wordsFor(entry.type, entry.ctx ?? {})) ?? t`Not a value this field takes`;
}

/**
 * The message of an issue the console's own check found (parsed with `issueWords`): an integer
 * field's schema words its type error itself, in English, as the server's 422 does.
 */
export const ownCheckMessage = (issue: z.core.$ZodIssue): string =>
  issue.message === INTEGER_EXPECTED ? t`Must be a valid integer` : issue.message;
