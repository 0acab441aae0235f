/** Why a command line cannot be split, in Python's words. */
export class ShlexError extends Error {}

/** Python's `shlex` whitespace: other characters, Unicode spaces included, belong to a word. */
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

/**
 * Words of `line` as Python's `shlex.split(line)` (POSIX mode) gives them: `'…'` literal, `"…"`
 * with only `\"` and `\\` escaped, a backslash outside quotes escaping any character, quoted
 * parts joined to their word, `''` an empty word. No `$'…'` or other shell expansion.
 */
export function shlexSplit(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let at = 0;
  const next = (problem: string): string => {
    const char = line[at++];
    if (char === undefined) throw new ShlexError(problem);
    return char;
  };
  while (at < line.length) {
    const char = next('');
    if (WHITESPACE.has(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (char === '\\') {
      word += next('No escaped character');
    } else if (char === "'") {
      for (let quoted = next('No closing quotation'); quoted !== "'"; quoted = next('No closing quotation')) word += quoted;
    } else if (char === '"') {
      for (let quoted = next('No closing quotation'); quoted !== '"'; quoted = next('No closing quotation')) {
        if (quoted !== '\\') {
          word += quoted;
          continue;
        }
        const escaped = next('No escaped character');
        word += escaped === '"' || escaped === '\\' ? escaped : `\\${escaped}`;
      }
    } else {
      word += char;
    }
  }
  if (inWord) words.push(word);
  return words;
}
