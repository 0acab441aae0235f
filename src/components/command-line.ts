import { join, split } from 'shlex';

export type SplitResult = { ok: true; args: string[] } | { ok: false; error: string };

/**
 * Splits a pasted command line into arguments the way a shell (and OpenHands' `shlex.split`)
 * does: whitespace separates, quotes and backslashes keep spaces inside one argument.
 */
export function splitCommandLine(line: string): SplitResult {
  try {
    return { ok: true, args: split(line) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: /quoted string/.test(reason) ? 'A quote is not closed' : reason };
  }
}

/** Arguments as one command line a shell (and `splitCommandLine`) reads back the same: spaces and quotes quoted. */
export const joinCommandLine = (args: readonly string[]): string => join(args);
