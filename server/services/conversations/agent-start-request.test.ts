import { sessionKeyCaller } from '../../authz/caller';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentStartConversationSchema } from '../../agent-server/contract';
import { DEMO_MODEL } from '../../../src/contract/events';
import { LlmPrices } from '../../llm-prices';
import { AgentStartRequests } from './agent-start-request';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

const post = async (url: string, body: unknown) => {
  const response = await t.request({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(response.statusCode, response.body).toBeLessThan(300);
};

const spec = {
  conversationId: 'a'.repeat(32),
  owner: sessionKeyCaller,
  workingDir: '/sandbox/workspace',
  llmModel: null,
  initialMessage: null,
};
const startRequest = (prices = new LlmPrices(), llmModel: string | null = null) =>
  new AgentStartRequests(t.services.settings, t.services.secrets, prices, t.services.llmProxy, t.services.webSearch).build({
    ...spec,
    llmModel,
  });

describe('AgentStartRequests', () => {
  it("sends the user's model with its price (the LLM proxy's address and the conversation's token, never the key), budget, git identity, custom secrets and git token", async () => {
    await post('/api/settings', {
      llm_model: 'anthropic/claude-sonnet-4-5-20250929',
      llm_api_key: 'sk-llm-key',
      max_budget_per_task: 2.5,
      max_iterations: 40,
      confirmation_mode: true,
      git_user_name: 'Ada Lovelace',
      git_user_email: 'ada@example.com',
    });
    await post('/api/secrets', { name: 'API_TOKEN', value: 'custom-secret-value' });
    await post('/api/secrets', { name: 'DB_PASSWORD', value: 'hunter2' });
    await post('/api/add-git-providers', { provider_tokens: { github: { token: 'ghp_example' }, gitlab: { token: 'glpat-example' } } });

    const body = await startRequest();

    expect(body.agent.llm).toEqual({
      model: 'anthropic/claude-sonnet-4-5-20250929',
      base_url: await t.services.llmProxy.baseUrlForSandbox(),
      api_key: t.services.llmProxy.tokenFor(spec.conversationId),
      price: { input: 3, output: 15, cache_read: 0.3 },
    });
    expect(body.agent.llm.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(JSON.stringify(body)).not.toContain('sk-llm-key');
    expect(body.secrets).toEqual({
      API_TOKEN: { kind: 'StaticSecret', value: 'custom-secret-value' },
      DB_PASSWORD: { kind: 'StaticSecret', value: 'hunter2' },
      GITHUB_TOKEN: { kind: 'StaticSecret', value: 'ghp_example' },
      GITLAB_TOKEN: { kind: 'StaticSecret', value: 'glpat-example' },
    });
    expect(body.max_budget_per_task).toBe(2.5);
    expect(body.max_iterations).toBe(40);
    expect(body.confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
    expect(body.environment).toEqual({
      GIT_AUTHOR_NAME: 'Ada Lovelace',
      GIT_COMMITTER_NAME: 'Ada Lovelace',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    });
    const parsed = agentStartConversationSchema.safeParse(body);
    expect(parsed.error).toBeUndefined();
    expect(parsed.data).toEqual(body);
  });

  it('lets a custom secret named like a token variable win over the token', async () => {
    await post('/api/add-git-providers', { provider_tokens: { github: { token: 'ghp_connected' } } });
    await post('/api/secrets', { name: 'GITHUB_TOKEN', value: 'ghp_chosen' });
    expect((await startRequest()).secrets).toEqual({ GITHUB_TOKEN: { kind: 'StaticSecret', value: 'ghp_chosen' } });
  });

  it('sends only the git identity that is set, and prices from the table it is given', async () => {
    await post('/api/settings', { llm_model: 'my-company/house-model', git_user_email: 'ops@example.com' });
    const prices = new LlmPrices({ 'house-model': { input: 1, output: 2, cache_read: null } });

    const body = await startRequest(prices);

    expect(body.environment).toEqual({ GIT_AUTHOR_EMAIL: 'ops@example.com', GIT_COMMITTER_EMAIL: 'ops@example.com' });
    expect(body.agent.llm.price).toEqual({ input: 1, output: 2, cache_read: null });
    expect(agentStartConversationSchema.safeParse(body).success).toBe(true);
  });

  it("sends the user's language, for the agent to answer in; none when Settings name none", async () => {
    expect((await startRequest()).language).toBeNull();
    await post('/api/settings', { language: ' de ' });
    expect((await startRequest()).language).toBe('de');
  });

  it('has no price for an unknown model, and nothing else before any settings are saved', async () => {
    const body = await startRequest(new LlmPrices(), 'my-local-llama');
    expect(body).toMatchObject({
      agent: { llm: { model: 'my-local-llama', price: null } },
      secrets: {},
      max_budget_per_task: null,
      environment: {},
      max_iterations: 500,
      language: null,
    });
    expect(agentStartConversationSchema.safeParse(body).success).toBe(true);
  });

  it("prices the demo model named by the start request at nothing, whatever Settings' model", async () => {
    await post('/api/settings', { llm_model: 'gpt-4o' });
    expect((await startRequest(new LlmPrices(), DEMO_MODEL)).agent.llm).toMatchObject({
      model: DEMO_MODEL,
      price: { input: 0, output: 0, cache_read: 0 },
    });
  });

  it("sends the user's MCP servers as the agent SDK's mcp_config: stdio by name, URL servers by host, as the sandbox reaches them, keys as bearer tokens", async () => {
    await post('/api/settings', {
      mcp_config: {
        stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { FETCH_TOKEN: 'tok-fetch' } }],
        sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'sk-sse' }],
        shttp_servers: [
          { url: 'http://localhost:8080/mcp', api_key: null },
          { url: 'https://mcp.example.com/mcp', api_key: 'sk-http' },
        ],
      },
    });
    const requests = new AgentStartRequests(
      t.services.settings,
      t.services.secrets,
      new LlmPrices(),
      t.services.llmProxy,
      t.services.webSearch,
      (url) => url.replace('localhost', 'host.docker.internal'),
    );
    const body = await requests.build(spec);
    expect(body.agent.mcp_config).toEqual({
      mcpServers: {
        fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: { FETCH_TOKEN: 'tok-fetch' } },
        'mcp-example-com': { url: 'https://mcp.example.com/sse', transport: 'sse', headers: { Authorization: 'Bearer sk-sse' } },
        'localhost-8080': { url: 'http://host.docker.internal:8080/mcp', transport: 'http', headers: {} },
        'mcp-example-com-2': { url: 'https://mcp.example.com/mcp', transport: 'http', headers: { Authorization: 'Bearer sk-http' } },
      },
    });
    expect(agentStartConversationSchema.safeParse(body).success).toBe(true);
  });

  it('offers web search only with a search key: the search route on the LLM proxy’s listener and the conversation’s token, never the key', async () => {
    expect((await startRequest()).agent.web_search).toBeNull();
    await post('/api/settings', { search_api_key: 'tvly-start-request-key' });

    const body = await startRequest();

    const proxy = await t.services.llmProxy.baseUrlForSandbox();
    expect(body.agent.web_search).toEqual({ url: `${proxy}/web-search`, api_key: t.services.llmProxy.tokenFor(spec.conversationId) });
    expect(JSON.stringify(body)).not.toContain('tvly-start-request-key');
    expect(agentStartConversationSchema.safeParse(body).success).toBe(true);
    await post('/api/settings', { search_api_key: '' });
    expect((await startRequest()).agent.web_search).toBeNull();
  });

  it('sends no MCP server before any is set', async () => {
    expect((await startRequest()).agent.mcp_config).toEqual({ mcpServers: {} });
  });

  it('maps confirmation mode and the LLM security analyzer as OpenHands does: ConfirmRisky with the analyzer, AlwaysConfirm without', async () => {
    await post('/api/settings', { confirmation_mode: true, security_analyzer: 'llm' });
    expect(await startRequest()).toMatchObject({
      confirmation_policy: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
      security_analyzer: { kind: 'LLMSecurityAnalyzer' },
    });
    await post('/api/settings', { security_analyzer: null });
    expect(await startRequest()).toMatchObject({ confirmation_policy: { kind: 'AlwaysConfirm' }, security_analyzer: null });
    await post('/api/settings', { confirmation_mode: false, security_analyzer: 'llm' });
    expect(await startRequest()).toMatchObject({
      confirmation_policy: { kind: 'NeverConfirm' },
      security_analyzer: { kind: 'LLMSecurityAnalyzer' },
    });
  });

  it("sends OpenHands' default condenser unless Settings turn it off, at Settings' size", async () => {
    expect((await startRequest()).agent.condenser).toEqual({ kind: 'LLMSummarizingCondenser', max_size: 80, keep_first: 4 });
    await post('/api/settings', { condenser_max_size: 30 });
    expect((await startRequest()).agent.condenser).toMatchObject({ max_size: 30 });
    await post('/api/settings', { enable_default_condenser: false });
    expect((await startRequest()).agent.condenser).toBeNull();
  });
});
