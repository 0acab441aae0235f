import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import type * as z from 'zod/mini';
import type { ValidationErrorEntry } from '../contract/validation-detail';
import { INTEGER_EXPECTED } from '../contract/rules';
import { consoleMessage, issueMessage } from '../contract/validation-message';

/*
 * What a person reads for a validation problem, in the console's language. Pydantic's `type` and
 * `ctx` (what OpenHands and our server send in a 422, and what the console's own check finds) say
 * the problem; the words are the console's. A problem of a kind not known here (a server's own
 * check, `value_error`) is shown in the server's words.
 */

type Ctx = Record<string, unknown>;

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const bound = (value: unknown): string | undefined =>
  typeof value === 'number' || typeof value === 'string' ? i18n.number(Number(value)) : undefined;

/** The words for each kind of problem the console knows; `undefined` when its `ctx` lacks what they need. */
const WORDS: Record<string, (ctx: Ctx) => string | undefined> = {
  missing: () => t`Required`,
  extra_forbidden: () => t`Unknown field`,
  int_type: () => t`Must be a valid integer`,
  int_parsing: () => t`Must be a valid integer`,
  int_from_float: () => t`Must be a valid integer`,
  float_type: () => t`Must be a valid number`,
  float_parsing: () => t`Must be a valid number`,
  finite_number: () => t`Must be a finite number`,
  bool_type: () => t`Must be a valid boolean`,
  bool_parsing: () => t`Must be a valid boolean`,
  string_type: () => t`Must be a valid string`,
  list_type: () => t`Must be a valid list`,
  dict_type: () => t`Must be a valid dictionary`,
  greater_than: ({ gt }) => {
    const limit = bound(gt);
    return limit === undefined ? undefined : t`Must be greater than ${limit}`;
  },
  greater_than_equal: ({ ge }) => {
    const limit = bound(ge);
    return limit === undefined ? undefined : t`Must be greater than or equal to ${limit}`;
  },
  less_than: ({ lt }) => {
    const limit = bound(lt);
    return limit === undefined ? undefined : t`Must be less than ${limit}`;
  },
  less_than_equal: ({ le }) => {
    const limit = bound(le);
    return limit === undefined ? undefined : t`Must be less than or equal to ${limit}`;
  },
  multiple_of: ({ multiple_of }) => {
    const step = bound(multiple_of);
    return step === undefined ? undefined : t`Must be a multiple of ${step}`;
  },
  string_too_short: ({ min_length }) => {
    const least = count(min_length);
    return least === undefined
      ? undefined
      : plural(least, { one: 'Must have at least # character', other: 'Must have at least # characters' });
  },
  string_too_long: ({ max_length }) => {
    const most = count(max_length);
    return most === undefined ? undefined : plural(most, { one: 'Must have at most # character', other: 'Must have at most # characters' });
  },
  too_short: ({ min_length }) => {
    const least = count(min_length);
    return least === undefined ? undefined : plural(least, { one: 'Must have at least # item', other: 'Must have at least # items' });
  },
  too_long: ({ max_length }) => {
    const most = count(max_length);
    return most === undefined ? undefined : plural(most, { one: 'Must have at most # item', other: 'Must have at most # items' });
  },
  enum: ({ expected }) => (typeof expected === 'string' ? t`Must be ${expected}` : undefined),
  literal_error: ({ expected }) => (typeof expected === 'string' ? t`Must be ${expected}` : undefined),
};

/** What a person reads for one entry of a 422's `detail`, whichever server sent it. */
export function validationWords(entry: ValidationErrorEntry): string {
  return WORDS[entry.type]?.(entry.ctx ?? {}) ?? consoleMessage(entry);
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
  return (entry && WORDS[entry.type]?.(entry.ctx ?? {})) ?? issueMessage(issue);
}

/**
 * The message of an issue the console's own check found (parsed with `issueWords`): an integer
 * field's schema words its type error itself, in English, as the server's 422 does.
 */
export const ownCheckMessage = (issue: z.core.$ZodIssue): string =>
  issue.message === INTEGER_EXPECTED ? t`Must be a valid integer` : issue.message;
