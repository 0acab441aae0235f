/** Words the seeded conversation titles and messages are made of. */
export const WORDS = ['Fix', 'flaky', 'test', 'in', 'parser', 'Add', 'retry', 'to', 'upload', 'Refactor', 'settings', 'form', 'docs'];
/** About 1 % of the seeded titles carry this word: the `title__contains` search finds them. */
export const RARE_WORD = 'quokka';
