import { t } from '@lingui/core/macro';
import { ShlexError, shlexSplit } from '../contract/shlex-split';

export type SplitResult = { ok: true; args: string[] } | { ok: false; error: string };

/**
 * Splits a pasted command line into arguments as OpenHands' `shlex.split` does: whitespace
 * separates, quotes and backslashes keep spaces inside one argument.
 */
export function splitCommandLine(line: string): SplitResult {
  try {
    return { ok: true, args: shlexSplit(line) };
  } catch (error) {
    if (!(error instanceof ShlexError)) throw error;
    return { ok: false, error: error.message === 'No closing quotation' ? t`A quote is not closed` : error.message };
  }
}

/** Python's `shlex.quote`: safe words as they are, anything else in single quotes. */
const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'"'"'`)}'`);

/** Arguments as one command line a shell (and `splitCommandLine`) reads back the same: spaces and quotes quoted. */
export const joinCommandLine = (args: readonly string[]): string => args.map(quote).join(' ');
