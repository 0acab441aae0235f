import { describe, expect, it } from 'vitest';
import { ShlexError, shlexSplit } from './shlex-split';

// Each expected value is what Python 3.11's shlex.split gives for the line.
describe('shlexSplit', () => {
  it.each([
    ['-y "mcp server" --path=a\\ b', ['-y', 'mcp server', '--path=a b']],
    ["\"it's\" o'k'", ["it's", 'ok']],
    ['a\\ b "c\\"d"', ['a b', 'c"d']],
    // no bash $'…' or $"…" quoting: the $ is kept and the quotes work as plain quotes
    [`a $'x\\ty' $"q"`, ['a', '$x\\ty', '$q']],
    ["a '' b", ['a', '', 'b']],
    ['""', ['']],
    ['a"b"c', ['abc']],
    // inside double quotes only \" and \\ are escapes
    ['"a\\nb\\\\c\\$d"', ['a\\nb\\c\\$d']],
    ["'a\\b'", ['a\\b']],
    ['x\\\ny', ['x\ny']],
    ['a\u00a0b c', ['a\u00a0b', 'c']],
    ['a\tb\rc\nd', ['a', 'b', 'c', 'd']],
    ['#not comment', ['#not', 'comment']],
    ['a;b|c', ['a;b|c']],
    ['', []],
  ])('splits %j', (line, words) => {
    expect(shlexSplit(line)).toEqual(words);
  });

  it.each([
    ['"open', 'No closing quotation'],
    ["'open", 'No closing quotation'],
    ['end\\', 'No escaped character'],
    ['"end\\', 'No escaped character'],
  ])('refuses %j in Python’s words', (line, problem) => {
    expect(() => shlexSplit(line)).toThrow(new ShlexError(problem));
  });
});
