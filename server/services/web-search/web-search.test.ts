import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartTask } from '../../../src/contract/conversations';
import { ConversationsStore } from '../../store/conversations-store';
import { closedPort } from '../../testing/closed-port';
import { conversationRecord } from '../../testing/conversation-records';
import { type RuntimeName, runtimesUnderTest } from '../../testing/docker-engine';
import { type OpenAiStub, startOpenAiStub, type StubRequest } from '../../testing/openai-stub';
import { startTavilyStandIn, type TavilyStandIn } from '../../testing/tavily-stand-in';
import { addMember } from '../../testing/team-members';
import { startTestApp, type TestApp } from '../../testing/test-app';

const KEY = 'tvly-web-search-test-5d1c8e';

const apps: TestApp[] = [];
const closers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const closer of closers.splice(0)) await closer.close();
});

async function standIn(): Promise<TavilyStandIn> {
  const tavily = await startTavilyStandIn(KEY);
  closers.push(tavily);
  return tavily;
}

/** An app whose Tavily is `tavilyApiUrl`; what it logs, in `log()`. */
async function app(tavilyApiUrl: string, sandboxRuntime: RuntimeName = 'process') {
  let logged = '';
  const t = await startTestApp({ tavilyApiUrl, sandboxRuntime, logStream: { write: (line: string) => void (logged += line) } });
  apps.push(t);
  return { t, log: () => logged };
}

const settingsOf = async (t: TestApp, key: string, settings: object) => {
  const saved = await t.request({
    method: 'POST',
    url: '/api/settings',
    headers: { 'x-session-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(settings),
  });
  expect(saved.statusCode, saved.body).toBe(200);
};

const addConversation = (t: TestApp, id: string, userId = 'default') =>
  new ConversationsStore(t.db).insert(conversationRecord({ id, user_id: userId }));

/** A search as an agent server sends it: to the route its start request names, with its conversation's token. */
async function search(t: TestApp, token: string | undefined, body: unknown): Promise<Response> {
  const tool = t.services.webSearch.toolFor('any', 'any key', await t.services.llmProxy.baseUrlForSandbox())!;
  return fetch(tool.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
}
const tokenOf = (t: TestApp, id: string) => t.services.llmProxy.tokenFor(id);

describe('the web search route, on the LLM proxy’s listener', () => {
  it("passes a conversation's search on to Tavily with its owner's key, only the fields of Tavily's search, and Tavily's results back", async () => {
    const tavily = await standIn();
    const { t } = await app(tavily.url);
    await t.postSettings({ search_api_key: 'tvly-owner-not-this-one' });
    const member = await addMember(t, 'mia@example.com', 'member');
    await settingsOf(t, member.key, { search_api_key: KEY });
    await addConversation(t, 'c-mia', member.userId);

    const response = await search(t, tokenOf(t, 'c-mia'), {
      query: ' agent servers ',
      max_results: 1,
      topic: 'news',
      // Not the tool's: left out, whatever the sandbox sends.
      api_key: 'tvly-from-the-sandbox',
      include_raw_content: true,
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      query: 'agent servers',
      answer: null,
      results: [
        {
          title: 'agent servers: an overview',
          url: 'https://docs.example.com/agent-servers',
          content: "Everything about agent servers, in one page of the stand-in's.",
          score: 0.91,
        },
      ],
    });
    expect(tavily.requests.map(({ method, path, authorization }) => ({ method, path, authorization }))).toEqual([
      { method: 'POST', path: '/search', authorization: `Bearer ${KEY}` },
    ]);
    expect(tavily.searches()).toEqual([{ query: 'agent servers', max_results: 1, topic: 'news' }]);
  });

  it('refuses a search without a token of a conversation it has (before reading its body), and sends nothing on', async () => {
    const tavily = await standIn();
    const { t } = await app(tavily.url);
    await t.postSettings({ search_api_key: KEY });
    await addConversation(t, 'c-1');
    await addConversation(t, 'c-gone');
    expect(await new ConversationsStore(t.db).delete('default', 'c-gone')).toBe(true);
    const forged = `${tokenOf(t, 'c-1').slice(0, -4)}AAAA`;

    for (const token of [undefined, '', KEY, forged, tokenOf(t, 'c-gone'), tokenOf(t, 'c-never-made')]) {
      for (const body of [{ query: 'anything' }, { not: 'a search' }]) {
        const response = await search(t, token, body);
        expect(response.status, String(token)).toBe(401);
        expect(await response.json()).toEqual({ detail: 'Not a token of a conversation this server has' });
      }
    }
    expect(tavily.requests).toEqual([]);
  });

  it("refuses what is not Tavily's search request with FastAPI's 422, and sends nothing on", async () => {
    const tavily = await standIn();
    const { t } = await app(tavily.url);
    await t.postSettings({ search_api_key: KEY });
    await addConversation(t, 'c-1');

    const missing = await search(t, tokenOf(t, 'c-1'), { max_results: 3 });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: { loc: unknown[] }[] }).detail.map((entry) => entry.loc)).toEqual([['body', 'query']]);
    const tooMany = await search(t, tokenOf(t, 'c-1'), { query: 'x', max_results: 50, search_depth: 'deepest' });
    expect(((await tooMany.json()) as { detail: { loc: unknown[] }[] }).detail.map((entry) => entry.loc)).toEqual([
      ['body', 'search_depth'],
      ['body', 'max_results'],
    ]);
    expect(tavily.requests).toEqual([]);
  });

  it('says when the owner has no search key any more (409), and Tavily’s refusal or absence as a 502 in words, never with the key', async () => {
    const tavily = await standIn();
    const { t, log } = await app(tavily.url);
    await addConversation(t, 'c-1');

    const none = await search(t, tokenOf(t, 'c-1'), { query: 'x' });
    expect(none.status).toBe(409);
    expect(await none.json()).toEqual({
      detail: 'There is no search API key in Settings any more: web search is off until one is set again.',
    });

    const wrongKey = 'tvly-wrong-key-0c4e7a';
    await t.postSettings({ search_api_key: wrongKey });
    const refused = await search(t, tokenOf(t, 'c-1'), { query: 'x' });
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({
      detail: 'Tavily refused the search API key (HTTP 401: Unauthorized: missing or invalid API key.).',
    });
    expect(tavily.requests.at(-1)?.authorization).toBe(`Bearer ${wrongKey}`);

    const port = await closedPort();
    const elsewhere = await app(`http://127.0.0.1:${port}`);
    await elsewhere.t.postSettings({ search_api_key: wrongKey });
    await addConversation(elsewhere.t, 'c-2');
    const unreachable = await search(elsewhere.t, tokenOf(elsewhere.t, 'c-2'), { query: 'x' });
    expect(unreachable.status).toBe(502);
    expect(((await unreachable.json()) as { detail: string }).detail).toMatch(
      new RegExp(`^Cannot reach Tavily at http://127\\.0\\.0\\.1:${port}/search \\(.*ECONNREFUSED.*\\)\\.$`),
    );
    for (const logged of [log(), elsewhere.log()]) {
      expect(logged).toContain('web search done');
      expect(logged).not.toContain(wrongKey);
    }
  });
});

/** How long a start or a turn of the agent may take here. */
const WAIT = { timeout: 30_000 };

/** Starts a conversation with `text` as its first message; resolves once it is READY. */
async function startConversation(t: TestApp, text: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/v1/app-conversations',
    payload: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text }], run: true } }),
    headers: { 'content-type': 'application/json' },
  });
  expect(response.statusCode, response.body).toBe(200);
  const started = response.json<StartTask>();
  const ready = await vi.waitFor(async () => {
    const task = (await t.request({ method: 'GET', url: `/api/v1/app-conversations/start-tasks?ids=${started.id}` })).json<
      StartTask[]
    >()[0]!;
    expect(['READY', 'ERROR']).toContain(task.status);
    return task;
  }, WAIT);
  expect(ready.status, ready.detail ?? '').toBe('READY');
  return ready.app_conversation_id!;
}

async function llmStub(script: Parameters<typeof startOpenAiStub>[0]): Promise<OpenAiStub> {
  const llm = await startOpenAiStub(script);
  closers.push(llm);
  return llm;
}

const toolNames = (request: StubRequest | undefined) => (request?.tools ?? []).map((tool) => tool.function.name);
const toolResult = (request: StubRequest | undefined) =>
  JSON.stringify(request?.messages.filter((message) => message.role === 'tool').at(-1));

describe.each(runtimesUnderTest('server/services/web-search/web-search.test.ts'))("a conversation's agent on the %s runtime", (runtime) => {
  it('is offered web search with a search key in Settings; its search reaches Tavily through this server, the results come back to the model, and the key reaches no sandbox', async () => {
    const tavily = await standIn();
    const { t } = await app(tavily.url, runtime);
    const llm = await llmStub([
      // What the agent server was started with, as its own process sees it, and what its terminal has.
      { toolCalls: [{ name: 'terminal', arguments: { command: "tr '\\0' '\\n' < /proc/$PPID/environ; env" } }] },
      { toolCalls: [{ name: 'web_search', arguments: { query: 'OpenHands agent server', max_results: 2 } }] },
      { text: 'Found two pages.' },
    ]);
    await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-stub', search_api_key: KEY });

    const id = await startConversation(t, 'Look up the OpenHands agent server.');
    await vi.waitFor(() => expect(llm.requests).toHaveLength(3), WAIT);

    const [first, second, third] = llm.requests;
    expect(toolNames(first)).toContain('web_search');
    expect(first!.tools!.find((tool) => tool.function.name === 'web_search')?.function.parameters).toMatchObject({
      properties: { query: { type: 'string' } },
      required: ['query'],
    });
    // The agent server's environment and its terminal's: read (its port, the workspace), and no key in them.
    expect(toolResult(second)).toContain('PORT=');
    expect(toolResult(second)).toContain('PWD=');
    expect(toolResult(second)).not.toContain(KEY);
    const found = toolResult(third);
    expect(found).toContain("[Tool 'web_search' executed.]");
    expect(found).toContain('Title: OpenHands agent server: an overview');
    expect(found).toContain('URL: https://news.example.com/openhands-agent-server');
    expect(tavily.searches()).toEqual([{ query: 'OpenHands agent server', max_results: 2 }]);
    expect(tavily.requests.map((request) => request.authorization)).toEqual([`Bearer ${KEY}`]);

    // The timeline shows it as a call of the tavily server's tool; no event holds the key.
    const events = await vi.waitFor(async () => {
      const page = (await t.request({ method: 'GET', url: `/api/v1/events/search?conversation_id__eq=${id}&limit=100` })).json<{
        items: {
          kind: string;
          action?: { kind: string };
          observation?: { kind: string; is_error: boolean };
          tools?: { mcp_server?: string }[];
        }[];
      }>();
      expect(page.items.some((event) => event.observation?.kind === 'MCPToolObservation')).toBe(true);
      return page.items;
    }, WAIT);
    expect(events.find((event) => event.kind === 'SystemPromptEvent')?.tools).toContainEqual(
      expect.objectContaining({ mcp_server: 'tavily', function: expect.objectContaining({ name: 'web_search' }) }),
    );
    expect(events.find((event) => event.observation?.kind === 'MCPToolObservation')?.observation?.is_error).toBe(false);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('is not offered web search without a search key', async () => {
    const tavily = await standIn();
    const { t } = await app(tavily.url, runtime);
    const llm = await llmStub([{ text: 'Nothing to search with.' }]);
    await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-stub' });

    await startConversation(t, 'Look something up.');
    await vi.waitFor(() => expect(llm.requests).toHaveLength(1), WAIT);

    expect(toolNames(llm.requests[0])).toEqual(['terminal', 'file_editor', 'finish']);
    expect(tavily.requests).toEqual([]);
  });
});
