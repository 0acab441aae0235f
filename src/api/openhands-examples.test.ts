import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fakeApi, json } from '../testing/fake-api';
import { countConversations, getConversations, getStartTasks, searchConversations, streamStartConversation } from './conversations';
import { ApiError, errorFromResponse } from './errors';
import { deleteSandbox, pauseSandbox, searchSandboxes, searchSandboxSpecs, startSandbox } from './sandboxes';
import {
  createCustomSecret,
  deleteCustomSecret,
  fetchCustomSecrets,
  storeGitProviders,
  unsetProviderTokens,
  updateCustomSecret,
} from './secrets';
import { fetchSettings, storeSettings } from './settings';

/*
 * Contract tests: every example response in the OpenHands wire notes (../shared/spec), copied to
 * test-support/openhands-examples, read by the console call for its route (its schema, through
 * `apiRequest`), or, for an error response, by the console's error parser.
 */

const fixtureSchema = z.object({
  route: z.string(),
  status: z.number(),
  source: z.string(),
  _completed: z.optional(z.array(z.string())),
  body: z.unknown(),
});

const files = import.meta.glob('../../test-support/openhands-examples/*.json', { eager: true, import: 'default' });
const fixtures = Object.entries(files).map(([file, content]) => ({
  file: file.split('/').at(-1) ?? file,
  ...z.parse(fixtureSchema, content),
}));

/** The id every call below uses, for the `{id}` of a route. */
const ID = 'x1';

async function all<T>(elements: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const element of elements) read.push(element);
  return read;
}

/** The console's call for each route with an example response. */
const CALLS: Record<string, () => Promise<unknown>> = {
  'GET /api/v1/sandbox-specs/search': () => searchSandboxSpecs(),
  'GET /api/v1/sandboxes/search': () => searchSandboxes({}),
  'POST /api/v1/sandboxes': () => startSandbox(),
  'POST /api/v1/sandboxes/{id}/pause': () => pauseSandbox(ID),
  'DELETE /api/v1/sandboxes/{id}': () => deleteSandbox(ID),
  'POST /api/v1/app-conversations/stream-start': () => all(streamStartConversation({})),
  'GET /api/v1/app-conversations/start-tasks': () => getStartTasks([ID]),
  'GET /api/v1/app-conversations/search': () => searchConversations({}, undefined, 20),
  'GET /api/v1/app-conversations': () => getConversations([ID]),
  'GET /api/v1/app-conversations/count': () => countConversations({}),
  'GET /api/settings': () => fetchSettings(),
  'POST /api/settings': () => storeSettings({}),
  'POST /api/add-git-providers': () => storeGitProviders({ provider_tokens: {} }),
  'POST /api/unset-provider-tokens': () => unsetProviderTokens(),
  'GET /api/secrets': () => fetchCustomSecrets(),
  'POST /api/secrets': () => createCustomSecret({ name: 'API_KEY', value: 'v' }),
  'PUT /api/secrets/{id}': () => updateCustomSecret(ID, { description: 'd' }),
  'DELETE /api/secrets/{id}': () => deleteCustomSecret(ID),
};

const successes = fixtures.filter((fixture) => fixture.status < 400);
const refusals = fixtures.filter((fixture) => fixture.status >= 400);

describe('the example responses of the OpenHands notes', () => {
  it('are all here, each for a route the console calls', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(39);
    for (const { file, route } of fixtures) expect(Object.keys(CALLS), file).toContain(route);
  });

  it.each(successes.map((fixture) => [fixture.file, fixture] as const))(
    '%s is read by the console',
    async (_file, { route, status, body }) => {
      const api = fakeApi({ [route.replace('{id}', ID)]: () => json(status, body) });
      const call = CALLS[route];
      if (!call) throw new Error(`no console call for ${route}`);
      expect(await call()).toMatchObject(body as object);
      expect(api.calls()).toHaveLength(1);
    },
  );

  it.each(refusals.map((fixture) => [fixture.file, fixture] as const))('%s is read as the server’s refusal', (_file, { status, body }) => {
    const error = errorFromResponse(status, '', body);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    const detail = (body as { detail?: unknown }).detail;
    if (Array.isArray(detail)) {
      expect(error.validation).toEqual(detail);
    } else {
      const words = Object.values(body as Record<string, unknown>).find((value) => typeof value === 'string');
      expect(error.message).toBe(words);
    }
  });

  it('refusals on a route the console calls come back from that call as its error', async () => {
    const [{ route, status, body }] = refusals.filter((fixture) => fixture.file === 'error-secret-exists.json') as [(typeof refusals)[0]];
    fakeApi({ [route.replace('{id}', ID)]: () => json(status, body) });
    await expect(CALLS[route]?.()).rejects.toMatchObject({ kind: 'http', status: 400, message: 'Secret API_KEY already exists' });
  });
});
