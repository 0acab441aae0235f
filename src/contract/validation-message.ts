import { readableMessage, type ValidationErrorEntry } from './validation-detail';

/*
 * A server's validation message (Pydantic's words on the wire, as OpenHands sends them) in the
 * console's style: what the console shows for a problem it has no words of its own for
 * (`src/api/validation-words.ts`).
 */

/** What Pydantic words in a way of its own, by `type`. */
const BY_TYPE: Record<string, string> = { missing: 'Required', extra_forbidden: 'Unknown field' };

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
