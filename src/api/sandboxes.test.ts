import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../testing/fake-api';
import { deleteSandbox } from './sandboxes';

describe('deleteSandbox', () => {
  it('names the sandbox in the path and in the query, as OpenHands requires', async () => {
    const api = fakeApi({ 'DELETE /api/v1/sandboxes/a%20b': () => json(200, { success: true }) });
    await deleteSandbox('a b');
    expect(api.calls()).toEqual(['DELETE /api/v1/sandboxes/a%20b?sandbox_id=a+b']);
  });
});
