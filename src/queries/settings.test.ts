import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SettingsResponse } from '../contract/settings';
import { ASSUMED } from '../api/server-features';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { sandboxSpecKeys } from './sandbox-spec-keys';
import { serverCapabilityKeys } from './server-capabilities';
import { saveMcpConfigMutation, saveSettingsMutation, settingsKeys, settingsQuery } from './settings';

const stored: SettingsResponse = {
  ...DEFAULT_SETTINGS,
  llm_model: 'openai/gpt-5',
  mcp_config: null,
  llm_api_key_set: true,
  search_api_key_set: false,
  provider_tokens_set: {},
};

describe('settingsKeys', () => {
  it('nests the current settings under one root', () => {
    expect(settingsKeys.all).toEqual(['settings']);
    expect(settingsKeys.current()).toEqual(['settings', 'current']);
  });
});

describe('settingsQuery', () => {
  it('reads the settings into the cache under its key', async () => {
    fakeApi({ 'GET /api/settings': () => json(200, stored) });
    const queryClient = testQueryClient();
    await expect(queryClient.fetchQuery(settingsQuery())).resolves.toMatchObject({ llm_model: 'openai/gpt-5' });
    expect(queryClient.getQueryData(settingsKeys.current())).toMatchObject({ llm_model: 'openai/gpt-5' });
  });

  it("is null before anything was stored (OpenHands' 404)", async () => {
    fakeApi({ 'GET /api/settings': () => json(404, { error: 'Settings not found' }) });
    await expect(testQueryClient().fetchQuery(settingsQuery())).resolves.toBeNull();
  });
});

describe('saveSettingsMutation', () => {
  /** A query client that knows which server it talks to. */
  const clientFor = (kind: 'agent-console' | 'openhands') => {
    const queryClient = testQueryClient();
    queryClient.setQueryData(serverCapabilityKeys.features(), { ...ASSUMED, kind, partialSettingsUpdate: kind === 'agent-console' });
    return queryClient;
  };
  const storing = (current: SettingsResponse) =>
    fakeApi({
      'GET /api/settings': () => json(200, current),
      'POST /api/settings': (request) => {
        current = { ...current, ...(request.body as Partial<SettingsResponse>) };
        return json(200, { message: 'Settings stored' });
      },
    });

  it('sends our server one POST of the changes alone, then reads the settings back once', async () => {
    const api = storing(stored);
    const queryClient = clientFor('agent-console');
    queryClient.setQueryData(sandboxSpecKeys.list(), { items: [], next_page_id: null });

    const outcome = await new MutationObserver(queryClient, saveSettingsMutation(queryClient)).mutate({ language: 'de' });

    expect(api.calls()).toEqual(['POST /api/settings', 'GET /api/settings?absent=null']);
    expect(api.requests[0]?.body).toEqual({ language: 'de' });
    expect(outcome).toMatchObject({ reloaded: true, settings: { language: 'de', llm_model: 'openai/gpt-5' } });
    expect(queryClient.getQueryData(settingsKeys.current())).toMatchObject({ language: 'de' });
    // on Docker the Settings image is the default spec's
    expect(queryClient.getQueryState(sandboxSpecKeys.list())?.isInvalidated).toBe(true);
  });

  it('posts OpenHands the changes on top of settings read fresh (it replaces what a POST leaves out), then reads back', async () => {
    const api = storing(stored);
    const queryClient = clientFor('openhands');
    queryClient.setQueryData(settingsKeys.current(), { ...stored, llm_model: 'stale/copy' });

    const outcome = await new MutationObserver(queryClient, saveSettingsMutation(queryClient)).mutate({ language: 'de' });

    expect(api.calls()).toEqual(['GET /api/settings?absent=null', 'POST /api/settings', 'GET /api/settings?absent=null']);
    expect(api.requests[1]?.body).toMatchObject({ llm_model: 'openai/gpt-5', language: 'de', llm_api_key: null });
    expect(outcome).toMatchObject({ reloaded: true, settings: { language: 'de' } });
  });

  it('writes every field when the server is not known yet (its document could not be read)', async () => {
    const api = storing(stored);
    const queryClient = testQueryClient();
    await new MutationObserver(queryClient, saveSettingsMutation(queryClient)).mutate({ language: 'de' });
    expect(api.calls()).toEqual([
      'GET /openapi.json',
      'GET /api/settings?absent=null',
      'POST /api/settings',
      'GET /api/settings?absent=null',
    ]);
  });

  it('counts a save whose read-back failed as saved, and says so', async () => {
    fakeApi({
      'GET /api/settings': () => json(500, { detail: 'down' }),
      'POST /api/settings': () => json(200, { message: 'Settings stored' }),
    });
    const queryClient = clientFor('agent-console');
    const outcome = await new MutationObserver(queryClient, saveSettingsMutation(queryClient)).mutate({ language: 'de' });
    expect(outcome).toMatchObject({ reloaded: false, error: { status: 500 } });
  });

  it('fails with the server’s 422 and reads nothing', async () => {
    const detail = [{ type: 'value_error', loc: ['body', 'llm_base_url'], msg: 'Value error, bad' }];
    const api = fakeApi({
      'GET /api/settings': () => json(200, stored),
      'POST /api/settings': () => json(422, { detail }),
    });
    const queryClient = clientFor('agent-console');
    const saving = new MutationObserver(queryClient, saveSettingsMutation(queryClient)).mutate({ llm_base_url: 'x' });
    await expect(saving).rejects.toMatchObject({ status: 422, validation: detail });
    expect(api.calls()).toEqual(['POST /api/settings']);
  });
});

describe('saveMcpConfigMutation', () => {
  it('applies the edit to mcp_config as read fresh, sends the rest as read, and invalidates the settings', async () => {
    const fresh = { ...stored, mcp_config: { sse_servers: [], stdio_servers: [], shttp_servers: [] } };
    const api = fakeApi({
      'GET /api/settings': () => json(200, fresh),
      'POST /api/settings': () => json(200, { message: 'Settings stored' }),
    });
    const queryClient = testQueryClient();
    queryClient.setQueryData(settingsKeys.current(), stored);
    const server = { name: 'fetch', command: 'uvx', args: [], env: {} };

    await new MutationObserver(queryClient, saveMcpConfigMutation(queryClient)).mutate((current) => ({
      ...current!,
      stdio_servers: [server],
    }));

    expect(api.requests[1]?.body).toMatchObject({
      llm_model: 'openai/gpt-5',
      mcp_config: { stdio_servers: [server], sse_servers: [], shttp_servers: [] },
    });
    expect(queryClient.getQueryState(settingsKeys.current())?.isInvalidated).toBe(true);
  });

  it('gives the edit null when no MCP servers are stored', async () => {
    fakeApi({
      'GET /api/settings': () => json(200, stored),
      'POST /api/settings': () => json(200, { message: 'Settings stored' }),
    });
    const queryClient = testQueryClient();
    const seen: unknown[] = [];
    await new MutationObserver(queryClient, saveMcpConfigMutation(queryClient)).mutate((current) => {
      seen.push(current);
      return { sse_servers: [], stdio_servers: [], shttp_servers: [] };
    });
    expect(seen).toEqual([null]);
  });
});
