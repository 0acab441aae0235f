import { describe, expect, it } from 'vitest';
import type { OrganizationDefaults } from '../../contract/organization-defaults';
import { sharedServers, toUpdate, toValues } from './team-defaults-page';

const none: OrganizationDefaults = {
  llm_model: null,
  llm_base_url: null,
  llm_api_key: null,
  llm_api_key_set: false,
  agent: null,
  confirmation_mode: null,
  security_analyzer: null,
  max_budget_per_task: null,
  mcp_config: null,
  sandbox_base_container_image: null,
  sandbox_runtime_container_image: null,
};

describe('team defaults form', () => {
  it('shows the shared MCP servers as JSON without their key flags, and reads them back', () => {
    const shared = {
      sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: null, api_key_set: true }],
      stdio_servers: [],
      shttp_servers: [],
    };
    const text = toValues({ ...none, mcp_config: shared } as OrganizationDefaults).mcp_config;
    expect(JSON.parse(text)).toEqual({
      sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: null }],
      stdio_servers: [],
      shttp_servers: [],
    });
    expect(sharedServers(text)).toEqual({ value: JSON.parse(text) });
    expect(sharedServers('{ nope')).toMatchObject({ notJson: expect.any(String) });
    expect(sharedServers('  ')).toEqual({ value: null });
  });

  it('sends every default, an emptied one as none, and the key only when typed', () => {
    const values = toValues({ ...none, llm_model: 'openai/gpt-5', max_budget_per_task: 2.5, llm_api_key_set: true });
    expect(values).toMatchObject({ llm_model: 'openai/gpt-5', max_budget_per_task: '2.5', llm_api_key: { value: '', clear: false } });
    expect(toUpdate({ ...values, llm_model: '  ', sandbox_runtime_container_image: ' img:1 ' }, null)).toMatchObject({
      llm_model: null,
      llm_api_key: null,
      max_budget_per_task: 2.5,
      sandbox_runtime_container_image: 'img:1',
      confirmation_mode: false,
    });
    expect(toUpdate({ ...values, llm_api_key: { value: 'sk-new', clear: false } }, null).llm_api_key).toBe('sk-new');
  });
});
