import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaskedStream, Masker } from './masking';

describe('masking', () => {
  const masker = new Masker({ LLM_API_KEY: 'sk-abcdef123', TOKEN: 'sk-abc', SHORT: 'ab', NONE: null });

  it('replaces the longest value first and leaves values under 4 characters alone', () => {
    expect(masker.text('key sk-abcdef123, token sk-abc, ab')).toBe('key <secret:LLM_API_KEY>, token <secret:TOKEN>, ab');
    expect(masker.deep({ list: ['sk-abc'], n: 1 })).toEqual({ list: ['<secret:TOKEN>'], n: 1 });
  });

  it('never lets a secret through a stream, however the text is cut into chunks', () => {
    const text = 'before sk-abcdef123 middle sk-abc after sk-abcdef12';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => text.slice(start, points[i] ?? text.length));
        const stream = new MaskedStream(masker);
        const shown = chunks.map((chunk) => stream.push(chunk)).join('');
        expect(shown).not.toContain('sk-abc');
        // All of it is shown except a tail that may still become a secret.
        expect(masker.text(text).startsWith(shown)).toBe(true);
        expect(shown).toContain('middle <secret:TOKEN> after');
      }),
    );
  });
});
