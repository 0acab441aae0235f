import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { contractResolver } from './contract-resolver';

interface Values {
  title: string;
  copies: string;
}

const schema = z.strictObject({ name: z.string().check(z.minLength(1)), count: z.number().check(z.int(), z.gte(1)) });
const toBody = (values: Values) => ({ name: values.title.trim(), count: Number(values.copies) });
const options = { fields: {}, shouldUseNativeValidation: false };

describe('contractResolver', () => {
  const resolve = contractResolver(toBody, schema, {
    fieldFor: (path) => ({ name: 'title', count: 'copies' })[path],
    formProblems: (values) => ({ copies: values.copies === '13' ? 'Not that one' : undefined }),
  });

  it('passes values the contract takes, as the form holds them', async () => {
    expect(await resolve({ title: ' a ', copies: '2' }, undefined, options)).toEqual({ values: { title: ' a ', copies: '2' }, errors: {} });
  });

  it('puts the contract’s problems at the form’s fields, in the console’s words, the form’s own first', async () => {
    const { errors } = await resolve({ title: ' ', copies: '0.5' }, undefined, options);
    expect(errors.title?.message).toBe('Must have at least 1 character');
    expect(errors.copies?.message).toMatch(/integer/);
    expect((await resolve({ title: 'a', copies: '13' }, undefined, options)).errors.copies?.message).toBe('Not that one');
  });

  it('says what finds no field as the form’s root problem', async () => {
    const resolveUnplaced = contractResolver(toBody, schema, { isField: (path) => path === 'name' });
    const { errors } = await resolveUnplaced({ title: 'a', copies: '0' }, undefined, options);
    expect(errors.root?.message).toMatch(/^count: /);
  });
});
