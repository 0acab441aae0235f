import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { signInWithPassword } from './auth';
import { apiRequest } from './client';
import { ApiError } from './errors';
import { signIn } from './session';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  signIn({ apiKey: 'the-key', baseUrl: 'http://api.example:3000' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('apiRequest', () => {
  it('calls the session server with the key header and JSON, and parses the response with the contract', async () => {
    fetchMock.mockResolvedValue(json(200, { message: 'ok', extra: true }));
    const response = await apiRequest('/api/thing', { method: 'POST', body: { a: 1 }, schema: z.object({ message: z.string() }) });
    expect(response).toEqual({ message: 'ok' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.example:3000/api/thing');
    expect(init?.headers).toMatchObject({ 'X-Session-API-Key': 'the-key', 'content-type': 'application/json' });
    expect(init?.body).toBe('{"a":1}');
  });

  it("asks for the console's language, so our server answers in it (English before one is chosen)", async () => {
    fetchMock.mockImplementation(() => Promise.resolve(json(200, { success: true })));
    await apiRequest('/api/thing', { schema: z.unknown() });
    expect(fetchMock.mock.calls[0]![1]?.headers).toMatchObject({ 'accept-language': 'en' });
    i18n.loadAndActivate({ locale: 'de', messages: {} });
    try {
      await apiRequest('/api/thing', { schema: z.unknown() });
      await signInWithPassword('ada@example.com', 'a password');
    } finally {
      i18n.activate('en');
    }
    expect(fetchMock.mock.calls[1]![1]?.headers).toMatchObject({ 'accept-language': 'de' });
    expect(fetchMock.mock.calls[2]![0]).toBe('/sign-in');
    expect(fetchMock.mock.calls[2]![1]?.headers).toMatchObject({ 'accept-language': 'de' });
  });

  it('carries a 422 detail as validation entries', async () => {
    const detail = [{ type: 'value_error', loc: ['body', 'llm_base_url'], msg: 'Value error, bad', input: 'x' }];
    fetchMock.mockResolvedValue(json(422, { detail }));
    const error = await apiRequest('/api/settings', { schema: z.unknown() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 422, validation: detail, message: 'The server rejected one value: bad' });
  });

  it.each([
    [{ detail: 'Not Found' }, 404, 'Not Found'],
    [{ error: 'Settings not found' }, 404, 'Settings not found'],
    [{ message: 'Secret X already exists' }, 400, 'Secret X already exists'],
    ['Internal Server Error', 500, 'Internal Server Error'],
  ])('reads the message of %j', async (body, status, message) => {
    fetchMock.mockResolvedValue(typeof body === 'string' ? new Response(body, { status }) : json(status, body));
    await expect(apiRequest('/api/x', { schema: z.unknown() })).rejects.toMatchObject({ status, message, validation: [] });
  });

  it('marks a 401 as unauthorized', async () => {
    fetchMock.mockResolvedValue(json(401, { detail: 'Unauthorized' }));
    const error = (await apiRequest('/api/x', { schema: z.unknown() }).catch((e: unknown) => e)) as ApiError;
    expect(error.isUnauthorized).toBe(true);
  });

  it('turns an unreachable server into a readable network error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/api/x', { schema: z.unknown() })).rejects.toMatchObject({
      kind: 'network',
      status: 0,
      message: expect.stringContaining('Cannot reach http://api.example:3000'),
    });
  });

  it('refuses a response that does not match the contract, naming the field', async () => {
    fetchMock.mockResolvedValue(json(200, { message: 42 }));
    await expect(apiRequest('/api/x', { schema: z.object({ message: z.string() }) })).rejects.toMatchObject({
      kind: 'invalid-response',
      message: expect.stringContaining('message: expected string'),
    });
  });

  it('uses explicit credentials when given', async () => {
    fetchMock.mockResolvedValue(json(200, {}));
    await apiRequest('/api/x', { schema: z.unknown(), session: { apiKey: 'other', baseUrl: '' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(init?.headers).toMatchObject({ 'X-Session-API-Key': 'other' });
  });
});

describe('ApiError.isUnauthorized', () => {
  it('is about the session key, not a 401 OpenHands gives for a rejected git token', () => {
    expect(new ApiError('x', 'http', 401, [], { detail: 'Unauthorized' }).isUnauthorized).toBe(true);
    expect(new ApiError('x', 'http', 401, [], undefined).isUnauthorized).toBe(true);
    expect(
      new ApiError('Invalid token', 'http', 401, [], { error: 'Invalid token. Please make sure it is a valid github token.' })
        .isUnauthorized,
    ).toBe(false);
    expect(new ApiError('x', 'http', 403, [], { detail: 'Forbidden' }).isUnauthorized).toBe(false);
  });
});
