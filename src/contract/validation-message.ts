import type * as z from 'zod/mini';
import { describeValues } from './rules';
import { readableMessage, type ValidationErrorEntry } from './validation-detail';

/*
 * What a person reads for a validation problem: the console's words, one style, whether a server
 * (Pydantic's words on the wire, as OpenHands sends them) or the console's own check found it.
 */

/** What Pydantic words in a way of its own, by `type`. */
const BY_TYPE: Record<string, string> = { missing: 'Required', extra_forbidden: 'Unknown field' };

/** What a value of the wrong type should have been, by zod's `expected`, as Pydantic names it. */
const KINDS: Record<string, string> = {
  int: 'a valid integer',
  number: 'a valid number',
  boolean: 'a valid boolean',
  string: 'a valid string',
  array: 'a valid list',
  object: 'a valid dictionary',
  record: 'a valid dictionary',
};

/**
 * The message for one zod issue in the console's words, as a server's 422 for the same problem
 * reads (`consoleMessage`). Pass it as the parse `error` option (zod/mini carries no message
 * texts of its own); schema-level messages win.
 */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.input === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? '')) return BY_TYPE.missing;
  switch (issue.code) {
    case 'invalid_type':
      if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return 'Must be a finite number';
      return `Must be ${KINDS[issue.expected] ?? `a valid ${issue.expected}`}`;
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = String(small ? issue.minimum : issue.maximum);
      if (issue.origin === 'number' || issue.origin === 'int') {
        return `Must be ${small ? 'greater' : 'less'} than ${issue.inclusive ? 'or equal to ' : ''}${limit}`;
      }
      return `Must have ${small ? 'at least' : 'at most'} ${limit} ${issue.origin === 'string' ? 'characters' : 'items'}`;
    }
    case 'invalid_value':
      return `Must be ${describeValues(issue.values)}`;
    case 'unrecognized_keys':
      return BY_TYPE.extra_forbidden;
    case 'invalid_format':
      return `Must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `Must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined;
  }
}

/**
 * A message in the console's words: Pydantic's phrasing (`Input should be …`, `String should
 * have …`) and a sentence that starts with the field's own name (`condenser_max_size must be at
 * least 20`, shown at that field) read `Must …`, without Pydantic's detail on how it parsed
 * (`…, unable to parse string as an integer`).
 */
export function inConsoleWords(message: string): string {
  return message
    .replace(/^(?:(?:Input|String|List|Dictionary|Tuple|Set|Value) should|[a-z\d]+(?:_[a-z\d]+)+ must)\b/, 'Must')
    .replace(/, (?:unable to|got a) .*$/, '');
}

/** What a person reads for a 422 entry, whichever server sent it, or for a problem the console's own check found. */
export function consoleMessage(entry: ValidationErrorEntry): string {
  return BY_TYPE[entry.type] ?? inConsoleWords(readableMessage(entry));
}
