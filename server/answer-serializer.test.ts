import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { answerSerializerCompiler, builtToSchema } from './answer-serializer';

const route = (schema: z.ZodMiniType) => ({ schema, method: 'GET', url: '/things', httpStatus: '200' });
const pageSchema = z.object({ items: z.array(z.object({ id: z.string(), size: z.number() })) });
const builtPageSchema = builtToSchema(z.object({ items: z.array(z.object({ id: z.string(), size: z.number() })) }));

describe('answer serializer', () => {
  it('encodes unmarked answers with their schema, dropping undeclared keys', () => {
    const serialize = answerSerializerCompiler({ checked: false })(route(pageSchema));
    expect(JSON.parse(serialize({ items: [{ id: 'a', size: 1, secret: 's' }] }))).toEqual({ items: [{ id: 'a', size: 1 }] });
  });

  it('sends a builtToSchema answer as it is', () => {
    const serialize = answerSerializerCompiler({ checked: false })(route(builtPageSchema));
    expect(JSON.parse(serialize({ items: [{ id: 'a', size: 1 }] }))).toEqual({ items: [{ id: 'a', size: 1 }] });
  });

  it('when checked, fails a builtToSchema answer its schema would change: an undeclared key, a wrong type', () => {
    const serialize = answerSerializerCompiler({ checked: true })(route(builtPageSchema));
    expect(serialize({ items: [{ id: 'a', size: 1 }] })).toBe('{"items":[{"id":"a","size":1}]}');
    expect(() => serialize({ items: [{ id: 'a', size: 1, secret: 's' }] })).toThrow();
    expect(() => serialize({ items: [{ id: 'a', size: '1' }] })).toThrow();
  });
});
