import type { FieldValues, Resolver } from 'react-hook-form';
import { inConsoleWords } from '../../contract/validation-message';

/**
 * `resolver` with its fields' messages in the console's words: the contract's own sentences
 * (which the wire keeps as OpenHands words them) read as a server's 422 does at the same field.
 */
export function consoleWordsResolver<T extends FieldValues, C, S>(resolver: Resolver<T, C, S>): Resolver<T, C, S> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    for (const error of Object.values(result.errors)) if (typeof error?.message === 'string') error.message = inConsoleWords(error.message);
    return result;
  };
}
