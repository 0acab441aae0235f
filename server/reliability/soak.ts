/*
 * Sizes of the reliability suites: short ones in `npm test` (fixed seeds), full ones in `npm run
 * soak` (SOAK=1, random seeds unless SEED is set). Every figure a suite measures is printed.
 */

export const SOAK = process.env.SOAK === '1';

/** The seed of a run: SEED if set (`npm run soak` sets a random one for all its suites), else 1. */
export const SEED = process.env.SEED ? Number(process.env.SEED) : 1;

/** `short` in `npm test`, `full` in a soak. */
export const size = (short: number, full: number): number => (SOAK ? full : short);

/** Prints a suite's figures where a soak run shows them. */
export function report(suite: string, figures: Record<string, unknown>): void {
  process.stdout.write(`[${suite}] ${JSON.stringify({ soak: SOAK, seed: SEED, ...figures })}\n`);
}
