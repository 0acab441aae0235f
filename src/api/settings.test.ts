import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SettingsResponse } from '../contract/settings';
import { settingsUpdateFrom } from './settings';

const current: SettingsResponse = {
  ...DEFAULT_SETTINGS,
  llm_model: 'openai/gpt-5',
  agent: 'CodeActAgent',
  mcp_config: {
    sse_servers: [{ url: 'https://a.example/sse', api_key: null, api_key_set: true }],
    stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} }],
    shttp_servers: [{ url: 'https://b.example/mcp', api_key: 'plain-from-openhands', timeout: 60 }],
  },
  secrets_store: { provider_tokens: {}, custom_secrets: {} },
  llm_api_key_set: true,
  search_api_key_set: false,
  sandbox_api_key_set: false,
  provider_tokens_set: { github: null },
};

describe('settingsUpdateFrom', () => {
  it('sends every field of the fresh settings with the changes on top', () => {
    const body = settingsUpdateFrom(current, { language: 'de' });
    expect(body).toMatchObject({ llm_model: 'openai/gpt-5', agent: 'CodeActAgent', language: 'de', enable_default_condenser: true });
    expect(Object.keys(body)).toEqual(expect.arrayContaining(Object.keys(DEFAULT_SETTINGS)));
  });

  it('keeps stored secrets (null) and leaves read-only fields out', () => {
    const body = settingsUpdateFrom(current, {}) as Record<string, unknown>;
    expect(body).toMatchObject({ llm_api_key: null, search_api_key: null, sandbox_api_key: null });
    for (const field of ['llm_api_key_set', 'search_api_key_set', 'sandbox_api_key_set', 'provider_tokens_set', 'secrets_store']) {
      expect(body).not.toHaveProperty(field);
    }
  });

  it('echoes MCP servers without our api_key_set flag, and a real server’s keys as they came', () => {
    const body = settingsUpdateFrom(current, {});
    expect(body.mcp_config).toEqual({
      sse_servers: [{ url: 'https://a.example/sse', api_key: null }],
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} }],
      shttp_servers: [{ url: 'https://b.example/mcp', api_key: 'plain-from-openhands', timeout: 60 }],
    });
  });

  it('lets a change replace a secret or clear it', () => {
    expect(settingsUpdateFrom(current, { llm_api_key: 'sk-new', search_api_key: '' })).toMatchObject({
      llm_api_key: 'sk-new',
      search_api_key: '',
    });
  });

  it('starts from nothing before the first save', () => {
    expect(settingsUpdateFrom(null, { llm_model: 'x/y' })).toMatchObject({ llm_model: 'x/y', llm_api_key: null });
  });
});
