import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../testing/fake-api';
import { replaceOrUpdateSecret } from './secret-update';

const ok = () => json(200, { message: 'ok' });

describe('replaceOrUpdateSecret', () => {
  it('updates in place where the server changes values with PUT', async () => {
    const api = fakeApi({ 'PUT /api/secrets/A': ok });
    await replaceOrUpdateSecret('A', { name: 'B', description: 'd', value: 'new' }, true);
    expect(api.requests).toEqual([{ method: 'PUT', url: '/api/secrets/A', body: { name: 'B', description: 'd', value: 'new' } }]);
  });

  it('uses PUT without a new value, whatever the server', async () => {
    const api = fakeApi({ 'PUT /api/secrets/A': ok });
    await replaceOrUpdateSecret('A', { name: 'B', description: null }, false);
    expect(api.calls()).toEqual(['PUT /api/secrets/A']);
  });

  it('replaces under a new name by creating the new one before deleting the old', async () => {
    const api = fakeApi({ 'POST /api/secrets': ok, 'DELETE /api/secrets/A': ok });
    await replaceOrUpdateSecret('A', { name: 'B', description: 'd', value: 'new' }, false);
    expect(api.requests).toEqual([
      { method: 'POST', url: '/api/secrets', body: { name: 'B', value: 'new', description: 'd' } },
      { method: 'DELETE', url: '/api/secrets/A', body: undefined },
    ]);
  });

  it('keeps the old secret when creating the new one fails', async () => {
    const api = fakeApi({ 'POST /api/secrets': () => json(400, { message: 'Secret B already exists' }) });
    await expect(replaceOrUpdateSecret('A', { name: 'B', value: 'new' }, false)).rejects.toMatchObject({ status: 400 });
    expect(api.calls()).toEqual(['POST /api/secrets']);
  });

  it('replaces under the same name by deleting first; one already gone is no obstacle', async () => {
    const api = fakeApi({ 'DELETE /api/secrets/A': () => json(404, { error: 'Secret with ID A not found' }), 'POST /api/secrets': ok });
    await replaceOrUpdateSecret('A', { name: 'A', description: null, value: 'new' }, false);
    expect(api.calls()).toEqual(['DELETE /api/secrets/A', 'POST /api/secrets']);
    expect(api.requests[1]?.body).toEqual({ name: 'A', value: 'new', description: null });
  });
});
