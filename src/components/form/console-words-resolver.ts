import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { inConsoleWords } from '../../contract/validation-error';

/** Every message in `errors`, nested ones too, in the console's words. */
function reword(errors: FieldErrors): void {
  for (const [key, error] of Object.entries(errors)) {
    if (key === 'ref' || error === null || typeof error !== 'object') continue;
    if (typeof error.message === 'string') error.message = inConsoleWords(error.message);
    reword(error as FieldErrors);
  }
}

/**
 * `resolver` with its messages in the console's words: the contract's own sentences (which the
 * wire keeps as OpenHands words them) read as a server's 422 does at the same field.
 */
export function consoleWordsResolver<T extends FieldValues, C, S>(resolver: Resolver<T, C, S>): Resolver<T, C, S> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    reword(result.errors);
    return result;
  };
}
