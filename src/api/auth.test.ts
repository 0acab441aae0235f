import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../contract/settings';
import { endCookieSession, startCookieSession, verifySession } from './auth';

const fetchMock = vi.fn<typeof fetch>();
const response = (status: number, body: unknown) => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
const session = { apiKey: 'k', baseUrl: 'http://api.example' };

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('verifySession', () => {
  it('accepts settings from the server', async () => {
    fetchMock.mockResolvedValue(response(200, { ...DEFAULT_SETTINGS, llm_api_key_set: false }));
    await expect(verifySession(session)).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ 'X-Session-API-Key': 'k' });
  });

  it("accepts OpenHands' first-run 404", async () => {
    fetchMock.mockResolvedValue(response(404, { error: 'Settings not found' }));
    await expect(verifySession(session)).resolves.toBeUndefined();
  });

  it('refuses a 401 as such', async () => {
    fetchMock.mockResolvedValue(response(401, { detail: 'Unauthorized' }));
    await expect(verifySession(session)).rejects.toMatchObject({ isUnauthorized: true });
  });

  it.each([
    ['a 404 from some other web server', response(404, '<html>Not Found</html>')],
    ['a 500', response(500, 'Internal Server Error')],
    ['a 200 that is not settings', response(200, '<html>hello</html>')],
  ])('refuses %s, saying this is not the API', async (_name, response) => {
    fetchMock.mockResolvedValue(response);
    await expect(verifySession(session)).rejects.toThrow(/does not respond like an Agent Conversation Service/);
  });
});

describe('the session cookie', () => {
  it("is asked of the console's own server with the key", async () => {
    fetchMock.mockResolvedValue(response(200, { success: true }));
    await startCookieSession({ apiKey: 'k', baseUrl: '' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/sign-in');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST', body: JSON.stringify({ key: 'k' }) });
  });

  it("is not asked of another server (the cookie is this origin's), nor missed when a server has no such route", async () => {
    await startCookieSession(session);
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockResolvedValue(response(404, { detail: 'Not Found' }));
    await expect(startCookieSession({ apiKey: 'k', baseUrl: '' })).resolves.toBeUndefined();
  });

  it('is not asked for on 127.0.0.1, where our server sets none (the console goes on with the key header)', async () => {
    await startCookieSession({ apiKey: 'k', baseUrl: '' }, '127.0.0.1');
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockResolvedValue(response(200, { success: true }));
    await startCookieSession({ apiKey: 'k', baseUrl: '' }, 'localhost');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('is removed on sign-out', async () => {
    fetchMock.mockResolvedValue(response(200, { success: true }));
    await endCookieSession();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/sign-out');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST' });
  });
});
