import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from '../../contract/rules';
import { issueMessage } from '../../contract/validation-error';
import { serverMessage } from './server-message';

const consoleSays = (schema: z.ZodMiniType, value: unknown) =>
  z.safeParse(schema, value, { error: issueMessage }).error?.issues[0]?.message;

describe('serverMessage', () => {
  it.each([
    // what Pydantic (OpenHands) answers, and what the console's own check says for the same problem
    [{ type: 'int_parsing', loc: [], msg: 'Input should be a valid integer, unable to parse string as an integer' }, integer(), 'x'],
    [
      { type: 'greater_than_equal', loc: [], msg: 'Input should be greater than or equal to 1', ctx: { ge: 1 } },
      integer().check(z.gte(1)),
      0,
    ],
    [{ type: 'greater_than', loc: [], msg: 'Input should be greater than 0', ctx: { gt: 0 } }, z.number().check(z.gt(0)), -1],
    [{ type: 'missing', loc: [], msg: 'Field required' }, z.object({ a: z.string() }), {}],
  ])('words %j as the console does', (entry, schema, value) => {
    expect(serverMessage(entry)).toBe(consoleSays(schema, value)?.replace(/^a: /, ''));
  });

  it('falls back to msg, without Pydantic’s "Value error, "', () => {
    expect(serverMessage({ type: 'value_error', loc: [], msg: 'Value error, URL must include a valid domain/host' })).toBe(
      'URL must include a valid domain/host',
    );
    expect(serverMessage({ type: 'greater_than', loc: [], msg: 'Too small' })).toBe('Too small');
  });
});
