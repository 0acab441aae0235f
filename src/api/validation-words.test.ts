import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { ValidationErrorEntry } from '../contract/validation-detail';
import { messages as german } from '../i18n/locales/de.po';
import { messages as french } from '../i18n/locales/fr.po';
import { issueWords, validationWords } from './validation-words';

afterEach(() => i18n.activate('en'));

function inLanguage(locale: 'de' | 'fr') {
  i18n.load(locale, locale === 'de' ? german : french);
  i18n.activate(locale);
}

const entry = (type: string, ctx?: Record<string, unknown>, msg = 'Pydantic’s own words'): ValidationErrorEntry => ({
  type,
  loc: ['body', 'x'],
  msg,
  ctx,
});

/** What the console's own check says for `value` against `schema`. */
const ownCheck = (schema: z.ZodMiniType, value: unknown) => z.safeParse(schema, value, { error: issueWords }).error?.issues[0]?.message;

describe('validationWords', () => {
  it("says a 422's problem from its type and ctx, in the console's language", () => {
    const problems = [
      entry('missing'),
      entry('string_too_long', { max_length: 255 }),
      entry('greater_than_equal', { ge: 1 }),
      entry('int_parsing'),
      entry('extra_forbidden'),
    ];
    expect(problems.map(validationWords)).toEqual([
      'Required',
      'Must have at most 255 characters',
      'Must be greater than or equal to 1',
      'Must be a valid integer',
      'Unknown field',
    ]);
    inLanguage('de');
    expect(problems.map(validationWords)).toEqual([
      'Erforderlich',
      'Darf höchstens 255 Zeichen haben',
      'Muss größer oder gleich 1 sein',
      'Muss eine gültige ganze Zahl sein',
      'Unbekanntes Feld',
    ]);
  });

  it("shows a server's own check, and a type it does not know, in the server's words", () => {
    inLanguage('de');
    expect(validationWords(entry('value_error', { error: {} }, 'Value error, URL must include a valid domain/host'))).toBe(
      'URL must include a valid domain/host',
    );
    expect(validationWords(entry('url_parsing', undefined, 'Input should be a valid URL'))).toBe('Must be a valid URL');
    // A bound its ctx does not give: the message is all there is.
    expect(validationWords(entry('greater_than', undefined, 'Input should be greater than 0'))).toBe('Must be greater than 0');
  });

  it('counts with the language’s plural rules', () => {
    expect(validationWords(entry('too_short', { min_length: 1 }))).toBe('Must have at least 1 item');
    expect(validationWords(entry('too_short', { min_length: 2 }))).toBe('Must have at least 2 items');
    inLanguage('fr');
    expect(validationWords(entry('string_too_short', { min_length: 1 }))).toBe('Doit contenir au moins 1 caractère');
    expect(validationWords(entry('string_too_short', { min_length: 3 }))).toBe('Doit contenir au moins 3 caractères');
  });
});

describe('issueWords', () => {
  it.each([
    [entry('greater_than_equal', { ge: 1 }), z.int().check(z.gte(1)), 0],
    [entry('greater_than', { gt: 0 }), z.number().check(z.gt(0)), -1],
    [entry('missing'), z.string(), undefined],
    [entry('string_too_long', { max_length: 3 }), z.string().check(z.maxLength(3)), 'abcd'],
    [entry('bool_type'), z.boolean(), 'maybe'],
    [entry('list_type'), z.array(z.string()), 'x'],
  ])("says what a server's %j says for the same problem", (sent, schema, value) => {
    inLanguage('de');
    expect(ownCheck(schema, value)).toBe(validationWords(sent));
  });

  it("lists a choice's values in the console's language", () => {
    inLanguage('fr');
    expect(ownCheck(z.enum(['a', 'b', 'c']), 'd')).toBe("Doit être 'a', 'b' ou 'c'");
  });
});
