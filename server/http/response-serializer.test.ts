import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { memoised, StoredJsonList } from '../services/json-texts';
import { builtToSchema, responseSerializerCompiler } from './response-serializer';

const route = (schema: z.ZodMiniType) => ({ schema, method: 'GET', url: '/things', httpStatus: '200' });
const pageSchema = z.object({ items: z.array(z.object({ id: z.string(), size: z.number() })) });
const builtPageSchema = builtToSchema(z.object({ items: z.array(z.object({ id: z.string(), size: z.number() })) }));

describe('response serializer', () => {
  it('encodes unmarked responses with their schema, dropping undeclared keys', () => {
    const serialize = responseSerializerCompiler({ checked: false })(route(pageSchema));
    expect(JSON.parse(serialize({ items: [{ id: 'a', size: 1, secret: 's' }] }))).toEqual({ items: [{ id: 'a', size: 1 }] });
  });

  it('sends a builtToSchema response as it is', () => {
    const serialize = responseSerializerCompiler({ checked: false })(route(builtPageSchema));
    expect(JSON.parse(serialize({ items: [{ id: 'a', size: 1 }] }))).toEqual({ items: [{ id: 'a', size: 1 }] });
  });

  it('when checked, fails a builtToSchema response its schema would change: an undeclared key, a wrong type', () => {
    const serialize = responseSerializerCompiler({ checked: true })(route(builtPageSchema));
    expect(serialize({ items: [{ id: 'a', size: 1 }] })).toBe('{"items":[{"id":"a","size":1}]}');
    expect(() => serialize({ items: [{ id: 'a', size: 1, secret: 's' }] })).toThrow();
    expect(() => serialize({ items: [{ id: 'a', size: '1' }] })).toThrow();
  });

  it('splices stored JSON lists in as they are, the rest as JSON.stringify writes it; checked, they are held to the schema too', () => {
    const stored = [
      { id: 'a', size: 1 },
      { id: 'b "quoted" \u2028', size: 2.5 },
    ];
    const response = { items: new StoredJsonList(stored.map((item) => JSON.stringify(item))), next: null, left: undefined };
    const expected = JSON.stringify({ items: stored, next: null });
    expect(responseSerializerCompiler({ checked: false })(route(builtPageSchema))(response)).toBe(expected);
    const checkedSchema = builtToSchema(z.object({ items: z.array(z.object({ id: z.string(), size: z.number() })), next: z.null() }));
    expect(responseSerializerCompiler({ checked: true })(route(checkedSchema))(response)).toBe(expected);
    const undeclared = { items: new StoredJsonList(['{"id":"a","size":1,"secret":"s"}']), next: null };
    expect(() => responseSerializerCompiler({ checked: true })(route(checkedSchema))(undeclared)).toThrow();
  });

  it('sends memoised responses and memoised list items as JSON.stringify writes them, frozen so their text cannot go stale', () => {
    const serialize = responseSerializerCompiler({ checked: false })(route(builtPageSchema));
    const item = memoised({ id: 'a "b"', size: 1, tags: ['x'] });
    const page = { items: [item, memoised({ id: 'c', size: 2 }), { id: 'plain', size: 3 }], next: null, left: undefined };
    expect(serialize(page)).toBe(JSON.stringify(page));
    expect(serialize(page)).toBe(JSON.stringify(page));
    expect(() => (item.tags as string[]).push('y')).toThrow();
    const whole = memoised({ items: [{ id: 'd', size: 4 }] });
    expect(serialize(whole)).toBe(JSON.stringify(whole));
    expect(() => (whole.items[0]!.size = 5)).toThrow();
    const checkedSchema = builtToSchema(z.object({ items: z.array(z.object({ id: z.string(), size: z.number() })), next: z.null() }));
    expect(() => responseSerializerCompiler({ checked: true })(route(checkedSchema))(page)).toThrow(); // `tags` is undeclared
    expect(
      responseSerializerCompiler({ checked: true })(route(checkedSchema))({ items: [memoised({ id: 'e', size: 6 })], next: null }),
    ).toBe('{"items":[{"id":"e","size":6}],"next":null}');
  });
});
