import type { TerminalOutput } from './events';

/** How much of a running command's output is kept to show (its end): what a stream that opens meanwhile starts with. */
export const RUNNING_OUTPUT_KEPT_CHARS = 64 * 1024;

/**
 * The output of a running command once `frame` is taken in: a `whole` frame (the output so far,
 * sent to a listener that starts while it runs) replaces what was kept, a piece is added to it;
 * only the end is kept.
 */
export function keptOutput(kept: string | undefined, frame: Pick<TerminalOutput, 'output' | 'whole'>): string {
  return (frame.whole ? frame.output : (kept ?? '') + frame.output).slice(-RUNNING_OUTPUT_KEPT_CHARS);
}
