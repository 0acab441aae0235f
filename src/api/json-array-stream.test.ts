import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from './json-array-stream';

const split = (chunks: string[]) => {
  const splitter = new JsonArraySplitter();
  return chunks.map((chunk) => splitter.push(chunk));
};

describe('JsonArraySplitter', () => {
  it('gives each element of OpenHands’ streamed array as its closing brace arrives', () => {
    expect(split(['[\n', '{"id":"a"}', ',\n{"id":"b"}', ']'])).toEqual([[], ['{"id":"a"}'], ['{"id":"b"}'], []]);
  });

  it('reads ours the same (a separator before each later element, a line break before the bracket)', () => {
    expect(split(['[\n{"id":"a"}', ',\n{"id":"b"}', '\n]'])).toEqual([['{"id":"a"}'], ['{"id":"b"}'], []]);
  });

  it('joins an element cut across chunks, at any character', () => {
    const text = '[\n{"a":{"b":[1,2]},"c":"x"},\n{"d":null}]';
    for (let cut = 1; cut < text.length; cut++) {
      expect(split([text.slice(0, cut), text.slice(cut)]).flat(), `cut at ${cut}`).toEqual(['{"a":{"b":[1,2]},"c":"x"}', '{"d":null}']);
    }
  });

  it('is not misled by brackets, braces and escaped quotes in strings', () => {
    const element = JSON.stringify({ detail: 'a } and a ] and a "quote" and a \\ backslash {[' });
    expect(split(['[', element.slice(0, 10), element.slice(10), ']']).flat()).toEqual([element]);
    expect(JSON.parse(split([`[${element}]`])[0]![0]!)).toEqual(JSON.parse(element));
  });
});
