import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentConversationInfo, AgentStartConversationInput } from './contract';
import type { AgentEvent } from '../../src/contract/events';
import { type AgentServerProcess, startAgentServer } from '../testing/agent-server-process';
import { contextOverflow, type OpenAiStub, startOpenAiStub, type StubReply } from '../testing/openai-stub';
import { type HttpMcpServer, startHttpMcpServer } from '../../test-support/mcp/http-server';
import { STDIO_MCP_SERVER } from '../testing/stdio-mcp-server';
import { running } from '../testing/running-commands';

const LLM_KEY = 'sk-loop-test-llm-key-7f3a9c';
const SECRET = 'tok-custom-secret-5b8e1d';
let server: AgentServerProcess;
let root: string;
let llm: OpenAiStub | undefined;
let counter = 0;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-loop-'));
  server = await startAgentServer(root);
});
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A conversation on the LLM stub, in a workspace of its own; returns its id and workspace. */
async function start(
  script: StubReply[],
  overrides: Partial<AgentStartConversationInput> & {
    price?: object | null;
    mcpServers?: Record<string, object>;
    condenser?: object | null;
    webSearch?: object | null;
  } = {},
) {
  llm = await startOpenAiStub(script);
  const workspace = path.join(root, 'workspaces', `w${++counter}`);
  fs.mkdirSync(workspace, { recursive: true });
  const { price = null, mcpServers = {}, condenser = null, webSearch = null, ...rest } = overrides;
  const created = await server.call('POST', '/api/conversations', {
    agent: {
      llm: { model: 'openai/stub-model', base_url: llm.baseUrl, api_key: LLM_KEY, price },
      mcp_config: { mcpServers },
      condenser,
      web_search: webSearch,
    },
    workspace: { working_dir: workspace },
    initial_message: { content: [{ type: 'text', text: 'Please do the task.' }] },
    ...rest,
  });
  expect(created.status).toBe(200);
  return { id: (created.body as AgentConversationInfo).id, workspace };
}

const info = async (id: string) => (await server.call('GET', `/api/conversations/${id}`)).body as AgentConversationInfo;
const ofKind = (events: AgentEvent[], kind: string) => events.filter((event) => event.kind === kind);
const terminal = (command: string): StubReply => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
/** Processes whose command line is `command`. */
const errorOf = (events: AgentEvent[]) => ofKind(events, 'ConversationErrorEvent').at(-1) as { code: string; detail: string } | undefined;

const STDIO_SERVER = STDIO_MCP_SERVER;
const mcpCall = (name: string, args: object): StubReply => ({ toolCalls: [{ name, arguments: args }] });

describe('history condensing', () => {
  const steps = (count: number) => Array.from({ length: count }, (_, i) => terminal(`echo step ${i + 1}`));
  const condenser = { kind: 'LLMSummarizingCondenser', max_size: 20, keep_first: 4 };

  it('summarises the middle once the history passes max_size: the LLM then gets the first events, the summary and the newest ones', async () => {
    const { id } = await start([...steps(10), { text: 'SUMMARY: ten echoes so far' }, { text: 'All done.' }], { condenser });
    await server.status(id, 'finished');
    const requests = llm!.requests;
    expect(requests).toHaveLength(12);
    // The summary request: no tools, one prompt with the events to forget.
    expect(requests[10]?.tools).toBeUndefined();
    expect(JSON.stringify(requests[10]?.messages)).toContain('<PREVIOUS SUMMARY>');
    expect(JSON.stringify(requests[10]?.messages)).toContain('echo step 3');
    const [condensation] = ofKind(await server.events(id), 'Condensation') as unknown as {
      summary: string;
      summary_offset: number;
      forgotten_event_ids: string[];
    }[];
    expect(condensation).toMatchObject({ summary: 'SUMMARY: ten echoes so far', summary_offset: 4 });
    expect(condensation!.forgotten_event_ids.length).toBeGreaterThan(10);
    const after = JSON.stringify(requests[11]?.messages);
    expect(after).toContain('SUMMARY: ten echoes so far');
    expect(after).toContain('echo step 1');
    expect(after).not.toContain('echo step 4');
    expect(after).toContain('echo step 10');
  });

  it('summarises half the history when the LLM says its context is full, and goes on', async () => {
    const { id } = await start([...steps(3), contextOverflow(), { text: 'SUMMARY: three echoes' }, { text: 'Done.' }], { condenser });
    await server.status(id, 'finished');
    const events = await server.events(id);
    expect(ofKind(events, 'CondensationRequest')).toHaveLength(1);
    expect(ofKind(events, 'Condensation')).toHaveLength(1);
    expect(errorOf(events)).toBeUndefined();
    expect(JSON.stringify(llm!.requests.at(-1)?.messages)).toContain('SUMMARY: three echoes');
  });
});

describe('MCP servers as tools', () => {
  let http: HttpMcpServer;
  beforeAll(async () => {
    http = await startHttpMcpServer({ token: 'mcp-token-4e1f9a' });
  });
  afterAll(async () => {
    await http.close();
  });

  it('offers a stdio server’s tools under their own names, runs a call in the sandbox and returns its result as the SDK shapes it', async () => {
    const { id } = await start([mcpCall('echo', { text: 'hello' }), { text: 'Echoed.' }], {
      mcpServers: { tools: { ...STDIO_SERVER, env: { TOOL_TOKEN: 'stdio-env-token-77c1' } } },
    });
    await server.status(id, 'finished');
    expect(llm!.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['terminal', 'file_editor', 'finish', 'echo', 'clock']);
    const events = await server.events(id);
    expect((events[0] as unknown as { tools: { function: { name: string }; mcp_server?: string }[] }).tools.at(-1)).toMatchObject({
      function: { name: 'clock' },
      mcp_server: 'tools',
    });
    expect(ofKind(events, 'ActionEvent')[0]).toMatchObject({
      tool_name: 'echo',
      action: { kind: 'MCPToolAction', data: { text: 'hello' } },
    });
    expect(ofKind(events, 'ObservationEvent')[0]).toMatchObject({
      tool_name: 'echo',
      observation: {
        kind: 'MCPToolObservation',
        tool_name: 'echo',
        is_error: false,
        content: [expect.objectContaining({ text: "[Tool 'echo' executed.]" }), expect.objectContaining({ text: 'echo: hello' })],
      },
    });
    expect(JSON.stringify(llm!.requests[1]?.messages)).toContain('echo: hello');
  });

  it('names each tool after its server when there are several, sends the API key, and masks it', async () => {
    const { id } = await start([mcpCall('remote_echo', { text: 'mcp-token-4e1f9a' }), { text: 'Done.' }], {
      mcpServers: {
        local: STDIO_SERVER,
        remote: { url: http.url, transport: 'http', headers: { Authorization: 'Bearer mcp-token-4e1f9a' } },
        legacy: { url: http.sseUrl, transport: 'sse', headers: { Authorization: 'Bearer mcp-token-4e1f9a' } },
      },
    });
    await server.status(id, 'finished');
    const names = llm!.requests[0]?.tools?.map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(['local_echo', 'remote_echo', 'legacy_echo', 'legacy_clock']));
    const stored = JSON.stringify(await server.events(id));
    expect(stored).toContain('echo: <secret:');
    expect(stored).not.toContain('mcp-token-4e1f9a');
  });

  it("masks every value of a stdio server's environment, whatever its name, in events and in what the LLM reads", async () => {
    const value = 'eu-north-7-region-value';
    const { id } = await start([mcpCall('echo', { text: value }), { text: 'Done.' }], {
      mcpServers: { tools: { ...STDIO_SERVER, env: { REGION: value } } },
    });
    await server.status(id, 'finished');
    const stored = JSON.stringify(await server.events(id));
    expect(stored).toContain('echo: <secret:MCP_tools_REGION>');
    expect(stored).not.toContain(value);
    expect(JSON.stringify(llm!.requests[1]?.messages)).not.toContain(value);
  });

  it('goes on without a server that does not start, saying which and why, and asks before an MCP call in confirmation mode', async () => {
    const { id } = await start([mcpCall('tools_echo', { text: 'approved' }), { text: 'Done.' }], {
      mcpServers: { missing: { command: 'no-such-mcp-server-7d2e' }, tools: STDIO_SERVER },
      confirmation_policy: { kind: 'AlwaysConfirm' },
    });
    await server.status(id, 'waiting_for_confirmation');
    const events = await server.events(id);
    expect(errorOf(events)).toMatchObject({
      code: 'MCP_UNAVAILABLE',
      detail: expect.stringContaining('The MCP server missing is not available'),
    });
    expect(errorOf(events)?.detail).toContain('no-such-mcp-server-7d2e');
    expect(llm!.requests[0]?.tools?.map((tool) => tool.function.name)).toContain('tools_echo');
    expect((await server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, { accept: true })).status).toBe(200);
    await server.status(id, 'finished');
    expect(ofKind(await server.events(id), 'ObservationEvent')[0]).toMatchObject({
      observation: { kind: 'MCPToolObservation', content: [expect.anything(), expect.objectContaining({ text: 'echo: approved' })] },
    });
  });
});

describe('web search through the app server', () => {
  const TOKEN = 'acllm-search-token-3b9f0d';
  let route: http.Server;
  let url: string;
  const searches: { authorization: string | undefined; body: unknown }[] = [];
  beforeAll(async () => {
    // The app server's search route as it answers when Tavily refuses the key (and, here, quotes the token).
    route = http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        searches.push({ authorization: request.headers.authorization, body: JSON.parse(raw) });
        response
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: `Tavily refused the search API key (HTTP 401: not ${TOKEN}).` }));
      });
    });
    await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(route.address() as AddressInfo).port}/v1/web-search`;
  });
  afterAll(async () => {
    await new Promise((resolve) => route.close(resolve));
  });

  it("is a tavily tool that asks the app server with the conversation's token, says a refusal as a failed search, and goes when a re-sent start has none", async () => {
    const { id, workspace } = await start(
      [
        { toolCalls: [{ name: 'web_search', arguments: { query: 'agent servers' } }] },
        { text: 'Could not search.' },
        { text: 'Still here.' },
      ],
      { webSearch: { url, api_key: TOKEN } },
    );
    await server.status(id, 'finished');

    expect(llm!.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['terminal', 'file_editor', 'finish', 'web_search']);
    expect(searches).toEqual([{ authorization: `Bearer ${TOKEN}`, body: { query: 'agent servers' } }]);
    const events = await server.events(id);
    expect(ofKind(events, 'ActionEvent')[0]).toMatchObject({
      tool_name: 'web_search',
      action: { kind: 'MCPToolAction', data: { query: 'agent servers' } },
    });
    expect(ofKind(events, 'ObservationEvent')[0]).toMatchObject({
      observation: {
        kind: 'MCPToolObservation',
        tool_name: 'web_search',
        is_error: true,
        content: [
          expect.objectContaining({
            text: 'Web search failed: Tavily refused the search API key (HTTP 401: not <secret:WEB_SEARCH_TOKEN>).',
          }),
        ],
      },
    });
    expect(JSON.stringify(events)).not.toContain(TOKEN);

    // Re-sent without it (the search key was removed, then the sandbox restarted): the model is offered it no more.
    const again = await server.call('POST', '/api/conversations', {
      conversation_id: id,
      agent: { llm: { model: 'openai/stub-model', base_url: llm!.baseUrl, api_key: LLM_KEY }, web_search: null },
      workspace: { working_dir: workspace },
    });
    expect(again.status).toBe(200);
    expect(
      (await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'Go on.' }], run: true })).status,
    ).toBe(200);
    await llm!.waitForRequests(3);
    expect(llm!.requests[2]?.tools?.map((tool) => tool.function.name)).toEqual(['terminal', 'file_editor', 'finish']);
  });
});

describe('the agent loop on an OpenAI-compatible LLM', () => {
  it('sends the key and the model, runs the terminal in the workspace and masks secrets', async () => {
    const { id, workspace } = await start([terminal('echo "token:$MY_TOKEN" && pwd && echo made > made.txt'), { text: 'All done.' }], {
      secrets: { MY_TOKEN: { kind: 'StaticSecret', value: SECRET } },
      price: { input: 1, output: 2 },
    });
    await server.status(id, 'finished');
    const stub = llm!;
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[0]).toMatchObject({ model: 'stub-model', authorization: `Bearer ${LLM_KEY}`, stream: true });
    expect(stub.requests[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(stub.requests[0]?.messages.map((message) => message.role)).toEqual(['system', 'user']);

    const events = await server.events(id);
    const observation = ofKind(events, 'ObservationEvent')[0] as unknown as {
      observation: { kind: string; exit_code: number; content: { text: string }[] };
    };
    expect(observation.observation).toMatchObject({ kind: 'TerminalObservation', exit_code: 0 });
    const output = observation.observation.content[0]?.text ?? '';
    expect(output).toContain('token:<secret:MY_TOKEN>');
    expect(output).toContain(workspace);
    expect(fs.readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
    // The LLM sees the observation masked too.
    expect(JSON.stringify(stub.requests[1]?.messages)).toContain('token:<secret:MY_TOKEN>');
    expect(ofKind(events, 'MessageEvent').at(-1)).toMatchObject({ source: 'agent', llm_message: { content: [{ text: 'All done.' }] } });

    // The socket's replay is masked as well.
    const frames = await collectFrames(
      `/sockets/events/${id}?resend_all=true`,
      (frame) => frame.kind === 'MessageEvent' && frame.source === 'agent',
    );
    expect(JSON.stringify(frames)).toContain('<secret:MY_TOKEN>');
    expect(JSON.stringify([events, frames])).not.toContain(SECRET);

    // 2 calls × (1000 prompt tokens at $1/M + 100 completion tokens at $2/M).
    const { metrics } = await info(id);
    expect(metrics).toMatchObject({
      model_name: 'openai/stub-model',
      cost_known: true,
      accumulated_token_usage: { prompt_tokens: 2000, completion_tokens: 200 },
    });
    expect(metrics?.accumulated_cost).toBeCloseTo(0.0024, 8);
  });

  it("tells the model in its system prompt to answer in the user's language, unless it is English", async () => {
    const systemOf = async (language: string | null) => {
      const { id } = await start([{ text: 'Fertig.' }], { language });
      await server.status(id, 'finished');
      const [system] = llm!.requests[0]?.messages ?? [];
      expect(system?.role).toBe('system');
      return JSON.stringify(system?.content);
    };
    const german = await systemOf('de');
    expect(german).toContain("The user's language is German (de): write your messages to the user");
    expect(german).toContain('in German');
    expect(await systemOf('zh-TW')).toContain('Chinese (Taiwan) (zh-TW)');
    expect(await systemOf('en-GB')).not.toContain("The user's language");
    expect(await systemOf(null)).not.toContain("The user's language");
  });

  it('streams partial text on the socket and stores the whole message once', async () => {
    llm = await startOpenAiStub([{ text: 'A fairly long reply, streamed in small pieces.' }]);
    const workspace = fs.mkdtempSync(path.join(root, 'stream-'));
    const created = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'litellm_proxy/stub-model', base_url: llm.baseUrl, api_key: LLM_KEY } },
      workspace: { working_dir: workspace },
    });
    const id = (created.body as AgentConversationInfo).id;
    const socket = server.socket(`/sockets/events/${id}`, { 'X-Session-API-Key': server.key });
    const frames: Record<string, unknown>[] = [];
    await new Promise((resolve) => socket.once('open', resolve));
    const finished = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as Record<string, unknown>;
        frames.push(frame);
        if (frame.key === 'execution_status' && frame.value === 'finished') resolve();
      }),
    );
    // A text frame from the client is a user message that runs the agent.
    socket.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Tell me something.' }] }));
    await finished;
    socket.close();
    expect(llm.requests[0]?.model).toBe('stub-model');
    const message = frames.find((frame) => frame.kind === 'MessageEvent' && frame.source === 'agent') as { llm_response_id: string };
    const deltas = frames.filter((frame) => frame.kind === 'StreamingDelta') as { delta: string; llm_response_id: string }[];
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((delta) => delta.delta).join('')).toBe('A fairly long reply, streamed in small pieces.');
    expect(new Set(deltas.map((delta) => delta.llm_response_id))).toEqual(new Set([message.llm_response_id]));
    const stored = await server.events(id);
    expect(stored.some((event) => event.kind === 'StreamingDelta' || event.kind === 'ConversationStateUpdateEvent')).toBe(false);
    expect(ofKind(stored, 'MessageEvent').map((event) => event.source)).toEqual(['user', 'agent']);
    // Metrics as the SDK's agent server sends them (OpenHands' web client reads the agent's cost there).
    const stats = frames.find((frame) => frame.kind === 'ConversationStateUpdateEvent' && frame.key === 'stats') as { value: unknown };
    expect(stats.value).toMatchObject({
      usage_to_metrics: { agent: { model_name: expect.any(String), accumulated_cost: expect.any(Number), costs: [], token_usages: [] } },
    });
  });

  it("sends a running command's output as it comes, masked, before its observation holds it whole", async () => {
    const waitFor = (file: string) => `while [ ! -f ${file} ]; do sleep 0.05; done`;
    const { id, workspace } = await start(
      [terminal(`${waitFor('go')}; echo "first $MY_TOKEN"; ${waitFor('go2')}; echo second`), { text: 'Done.' }],
      {
        secrets: { MY_TOKEN: { kind: 'StaticSecret', value: SECRET } },
      },
    );
    const socket = server.socket(`/sockets/events/${id}`, { 'X-Session-API-Key': server.key });
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    await new Promise((resolve) => socket.once('open', resolve));
    const outputs = () => frames.filter((frame) => frame.kind === 'TerminalOutput') as { action_id: string; output: string }[];
    fs.writeFileSync(path.join(workspace, 'go'), '');
    await vi.waitFor(
      () =>
        expect(
          outputs()
            .map((frame) => frame.output)
            .join(''),
        ).toContain('first'),
      { timeout: 10_000 },
    );
    // The command still runs: no observation yet.
    expect(frames.some((frame) => frame.kind === 'ObservationEvent')).toBe(false);
    // A socket that connects now starts with the output so far.
    const late = server.socket(`/sockets/events/${id}`, { 'X-Session-API-Key': server.key });
    const lateFrames: Record<string, unknown>[] = [];
    late.on('message', (data) => lateFrames.push(JSON.parse(String(data)) as Record<string, unknown>));
    await vi.waitFor(() =>
      expect(lateFrames.find((frame) => frame.kind === 'TerminalOutput')).toMatchObject({
        output: 'first <secret:MY_TOKEN>\n',
        whole: true,
      }),
    );
    late.close();
    fs.writeFileSync(path.join(workspace, 'go2'), '');
    await server.status(id, 'finished');
    await vi.waitFor(() => expect(frames.some((frame) => frame.kind === 'ObservationEvent')).toBe(true));
    socket.close();
    const action = ofKind(await server.events(id), 'ActionEvent')[0]!;
    expect(new Set(outputs().map((frame) => frame.action_id))).toEqual(new Set([action.id]));
    expect(
      outputs()
        .map((frame) => frame.output)
        .join(''),
    ).toBe('first <secret:MY_TOKEN>\nsecond\n');
    expect(JSON.stringify(frames)).not.toContain(SECRET);
    expect((await server.events(id)).some((event) => event.kind === 'TerminalOutput')).toBe(false);
    // The sandbox's log has the command, what it wrote and how it ended, masked.
    const log = server.output();
    expect(log).toContain(`conversation ${id.slice(0, 8)}: $ while [ ! -f go ]`);
    expect(log).toContain('first <secret:MY_TOKEN>\nsecond\n');
    expect(log).toContain(`conversation ${id.slice(0, 8)}: the command ended with exit code 0`);
    expect(log).not.toContain(SECRET);
  });

  it('goes on from the history of a lost sandbox: its events kept, an open action ended, the move said to the person and the LLM', async () => {
    const first = await start([terminal('echo one'), { text: 'Done.' }]);
    await server.status(first.id, 'finished');
    const before = await server.events(first.id);
    // The sandbox was lost while its command ran: the history ends at the action.
    const history = before.slice(
      0,
      before.findIndex((event) => event.kind === 'ObservationEvent'),
    );
    const action = ofKind(history, 'ActionEvent')[0]!;
    await llm!.close();

    // (The same agent server stands for the new sandbox's: it does not know this id yet.)
    const { id } = await start([{ text: 'Going on where we were.' }], {
      continued_from: { sandbox_id: 'old-sandbox', repository: 'octo/hello', branch: 'main', history, left_out: 7 },
    });
    await server.status(id, 'finished');
    const events = await server.events(id);
    // Every event of the old history, once each, with its own id; only this sandbox's system prompt.
    for (const event of history.filter((event) => event.kind !== 'SystemPromptEvent')) {
      expect(events.filter((candidate) => candidate.id === event.id)).toHaveLength(1);
    }
    expect(ofKind(events, 'SystemPromptEvent')).toHaveLength(1);
    expect(ofKind(events, 'SystemPromptEvent')[0]!.id).not.toBe(ofKind(history, 'SystemPromptEvent')[0]!.id);
    expect(ofKind(events, 'AgentErrorEvent')).toMatchObject([
      { tool_call_id: action.tool_call_id, error: expect.stringContaining('sandbox was lost') },
    ]);
    expect(ofKind(events, 'ContinuedInNewSandboxEvent')).toMatchObject([
      {
        source: 'environment',
        previous_sandbox_id: 'old-sandbox',
        repository: 'octo/hello',
        branch: 'main',
        detail: expect.stringMatching(/cloned again at main.*7 events between the first message and the newest ones were left out/),
      },
    ]);
    // The command did not run again; the LLM saw the old messages and the move.
    expect(ofKind(events, 'ObservationEvent')).toHaveLength(0);
    const messages = JSON.stringify(llm!.requests[0]?.messages);
    expect(messages).toContain('Please do the task.');
    expect(messages).toContain('Your sandbox was lost; this conversation goes on in a new one.');
  });

  it("gives the LLM a message's images as image parts beside its text", async () => {
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const { id } = await start([{ text: 'A tiny picture.' }], {
      initial_message: {
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', image_urls: [image] },
        ],
      },
    });
    await server.status(id, 'finished');
    const user = llm!.requests[0]?.messages.find((message) => (message as { role: string }).role === 'user') as { content: unknown };
    expect(user.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: image } },
    ]);
  });

  it('asks before each action in confirmation mode: a rejected one does not run, an approved one does', async () => {
    const { id, workspace } = await start([terminal('touch rejected.txt'), terminal('touch approved.txt'), { text: 'Finished.' }], {
      confirmation_policy: { kind: 'AlwaysConfirm' },
    });
    await server.status(id, 'waiting_for_confirmation');
    const confirm = (body: object) => server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, body);
    expect((await confirm({ accept: false, reason: 'Not that file, please.' })).status).toBe(200);
    const events = await server.waitForEvents(id, (found) => ofKind(found, 'ActionEvent').length === 2, 'the second action');
    expect(ofKind(events, 'UserRejectObservation')[0]).toMatchObject({ source: 'environment', rejection_reason: 'Not that file, please.' });
    expect(fs.existsSync(path.join(workspace, 'rejected.txt'))).toBe(false);
    expect(JSON.stringify(llm!.requests[1]?.messages)).toContain('Not that file, please.');
    await server.status(id, 'waiting_for_confirmation');
    expect((await confirm({ accept: true })).status).toBe(200);
    await server.status(id, 'finished');
    expect(fs.existsSync(path.join(workspace, 'approved.txt'))).toBe(true);
    expect(await confirm({ accept: true })).toEqual({ status: 409, body: { detail: 'No action is waiting for confirmation.' } });
  });

  it('finishes in confirmation mode without waiting when its only action is finish, and is idle after a message that does not run it', async () => {
    const { id } = await start([{ toolCalls: [{ name: 'finish', arguments: { message: 'Nothing to do.' } }] }], {
      confirmation_policy: { kind: 'AlwaysConfirm' },
    });
    await server.status(id, 'finished');
    expect(ofKind(await server.events(id), 'ObservationEvent')).toEqual([
      expect.objectContaining({ observation: expect.objectContaining({ kind: 'FinishObservation' }) }),
    ]);
    const message = { role: 'user', content: [{ type: 'text', text: 'One more thing.' }], run: false };
    expect((await server.call('POST', `/api/conversations/${id}/events`, message)).status).toBe(200);
    expect((await info(id)).execution_status).toBe('idle');
  });

  it('stops a running command at once on Stop: interrupted, no LLM call after it, and Continue goes on with the interruption in the history', async () => {
    const { id, workspace } = await start([
      terminal('touch started && trap "echo caught the interrupt; exit 130" INT; sleep 601 & wait'),
      { text: 'Stopped as asked.' },
    ]);
    await expect.poll(() => fs.existsSync(path.join(workspace, 'started')), { timeout: 10_000 }).toBe(true);
    expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    await server.status(id, 'paused', 5000);
    const observation = ofKind(await server.events(id), 'ObservationEvent')[0] as unknown as {
      observation: { exit_code: number; is_error: boolean; content: { text: string }[] };
    };
    expect(observation.observation).toMatchObject({ exit_code: 130, is_error: true });
    expect(observation.observation.content[0]!.text).toContain('caught the interrupt');
    expect(observation.observation.content[0]!.text).toContain('[The command was interrupted: the user pressed Stop.]');
    expect(llm!.requests).toHaveLength(1);
    // The shell ended on the interrupt; what it ran in the background (deaf to SIGINT) is killed after it.
    await expect.poll(() => running('sleep 601'), { timeout: 5000 }).toEqual([]);
    expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
    await server.status(id, 'finished');
    expect(JSON.stringify(llm!.requests[1]?.messages)).toContain('the user pressed Stop');
  });

  it('kills on Stop a command that ignores the interrupt', async () => {
    const { id, workspace } = await start([terminal('trap "" INT; touch ignoring; sleep 600')]);
    await expect.poll(() => fs.existsSync(path.join(workspace, 'ignoring')), { timeout: 10_000 }).toBe(true);
    expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    await server.status(id, 'paused', 8000);
    expect(ofKind(await server.events(id), 'ObservationEvent')[0]).toMatchObject({ observation: { is_error: true, exit_code: 137 } });
    expect(llm!.requests).toHaveLength(1);
  });

  it('is stuck when it repeats the same action with the same result, as OpenHands detects it, until the user says something', async () => {
    const { id } = await start([]);
    llm!.otherwise(terminal('echo same'));
    await server.status(id, 'stuck');
    expect(llm!.requests).toHaveLength(4);
    expect(ofKind(await server.events(id), 'ObservationEvent')).toHaveLength(4);
    const message = { role: 'user', content: [{ type: 'text', text: 'Try something else.' }], run: true };
    expect((await server.call('POST', `/api/conversations/${id}/events`, message)).status).toBe(200);
    await server.status(id, 'stuck');
    expect(llm!.requests).toHaveLength(8);
  });

  it('with the LLM security analyzer, asks only for a HIGH or unrated action (ConfirmRisky), and refuses a call without a rating', async () => {
    const rated = (command: string, risk?: string): StubReply => ({
      toolCalls: [{ name: 'terminal', arguments: { command, ...(risk ? { security_risk: risk } : {}) } }],
    });
    const { id, workspace } = await start(
      [rated('touch low.txt', 'LOW'), rated('touch unrated.txt'), rated('rm low.txt', 'HIGH'), { text: 'Done.' }],
      {
        confirmation_policy: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
        security_analyzer: { kind: 'LLMSecurityAnalyzer' },
      },
    );
    await server.status(id, 'waiting_for_confirmation');
    const events = await server.events(id);
    expect(fs.existsSync(path.join(workspace, 'low.txt'))).toBe(true);
    expect(ofKind(events, 'AgentErrorEvent')[0]).toMatchObject({ error: "Failed to provide security_risk field in tool 'terminal'" });
    expect(ofKind(events, 'ActionEvent').map((event) => event.security_risk)).toEqual(['LOW', 'UNKNOWN', 'HIGH']);
    expect(fs.existsSync(path.join(workspace, 'low.txt'))).toBe(true);
    // Offered to the model: every tool that acts takes a required rating; finish takes none.
    const offered = llm!.requests[0]!.tools!;
    const parameters = (name: string) => offered.find((tool) => tool.function.name === name)?.function.parameters as { required: string[] };
    expect(parameters('terminal').required).toContain('security_risk');
    expect(parameters('finish').required).not.toContain('security_risk');
    expect((await server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, { accept: true })).status).toBe(200);
    await server.status(id, 'finished');
    expect(fs.existsSync(path.join(workspace, 'low.txt'))).toBe(false);
  });

  it('without the analyzer, takes a rating the model gives but asks for every action under ConfirmRisky', async () => {
    const { id, workspace } = await start(
      [{ toolCalls: [{ name: 'terminal', arguments: { command: 'touch a.txt', security_risk: 'LOW' } }] }],
      {
        confirmation_policy: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
      },
    );
    await server.status(id, 'waiting_for_confirmation');
    expect(ofKind(await server.events(id), 'ActionEvent')[0]).toMatchObject({ security_risk: 'LOW' });
    expect(fs.existsSync(path.join(workspace, 'a.txt'))).toBe(false);
  });

  it('stops at max_iterations with an event that says so', async () => {
    const { id } = await start([], { max_iterations: 2 });
    llm!.otherwise(terminal('true'));
    await server.status(id, 'error');
    expect(llm!.requests).toHaveLength(2);
    expect(errorOf(await server.events(id))).toMatchObject({ code: 'MAX_ITERATIONS' });
  });

  it('stops when the cost passes the budget, before running the last actions', async () => {
    // $1000 per million tokens: one call of 1100 tokens costs $1.10.
    const { id, workspace } = await start([terminal('touch over-budget.txt')], {
      price: { input: 1000, output: 1000 },
      max_budget_per_task: 1,
    });
    await server.status(id, 'error');
    expect(errorOf(await server.events(id))).toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(llm!.requests).toHaveLength(1);
    expect(fs.existsSync(path.join(workspace, 'over-budget.txt'))).toBe(false);
    expect((await info(id)).metrics).toMatchObject({ accumulated_cost: 1.1, max_budget_per_task: 1, cost_known: true });
  });

  it('says the cost is unknown for a model without a price, and the budget does not apply', async () => {
    const { id } = await start([terminal('true'), { text: 'Done.' }], { max_budget_per_task: 0.000001 });
    await server.status(id, 'finished');
    expect((await info(id)).metrics).toMatchObject({
      cost_known: false,
      accumulated_cost: 0,
      accumulated_token_usage: { prompt_tokens: 2000 },
    });
  });

  it('reports a rejected key as LLM_AUTH, without retrying', async () => {
    // Some providers quote the key in their response: the event shows it masked.
    const { id } = await start([
      { status: 401, body: { error: { message: `Incorrect API key provided: ${LLM_KEY}`, code: 'invalid_api_key' } } },
    ]);
    await server.status(id, 'error');
    const error = errorOf(await server.events(id));
    expect(error?.code).toBe('LLM_AUTH');
    expect(error?.detail).toContain('The LLM rejected the key (Settings › LLM)');
    expect(error?.detail).toContain('Incorrect API key provided: <secret:LLM_API_KEY>');
    expect(llm!.requests).toHaveLength(1);
  });

  it('retries a rate limit three times and goes on when it passes', async () => {
    const { id } = await start([{ status: 429 }, { status: 429 }, { status: 503 }, { text: 'Made it.' }]);
    await server.status(id, 'finished');
    expect(llm!.requests).toHaveLength(4);
    expect(errorOf(await server.events(id))).toBeUndefined();
  });

  it('gives up on a rate limit that lasts, as LLM_UNAVAILABLE', async () => {
    const { id } = await start([]);
    llm!.otherwise({ status: 429 });
    await server.status(id, 'error');
    expect(llm!.requests).toHaveLength(4);
    expect(errorOf(await server.events(id))?.code).toBe('LLM_UNAVAILABLE');
  });

  it('explains a context overflow as LLM_CONTEXT', async () => {
    const { id } = await start([contextOverflow()]);
    await server.status(id, 'error');
    expect(errorOf(await server.events(id))?.detail).toMatch(/no longer fits in the model's context window/);
  });

  it('says to pick a model when none is set', async () => {
    const workspace = fs.mkdtempSync(path.join(root, 'no-model-'));
    const created = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: null } },
      workspace: { working_dir: workspace },
      initial_message: { content: [{ type: 'text', text: 'Hello?' }] },
    });
    const id = (created.body as AgentConversationInfo).id;
    await server.status(id, 'error');
    expect(errorOf(await server.events(id))).toMatchObject({ code: 'NO_MODEL', detail: expect.stringContaining('Settings') });
  });

  it('turns a bad tool call into an error the agent sees, not a crash', async () => {
    const { id } = await start([
      { toolCalls: [{ name: 'teleport', arguments: {} }] },
      { toolCalls: [{ name: 'file_editor', arguments: { command: 'view', path: '../../..' } }] },
      { text: 'OK.' },
    ]);
    await server.status(id, 'finished');
    const events = await server.events(id);
    expect(ofKind(events, 'AgentErrorEvent')[0]).toMatchObject({
      tool_name: 'teleport',
      error: expect.stringContaining('no tool named teleport'),
    });
    expect(ofKind(events, 'ObservationEvent')[0]).toMatchObject({ observation: { kind: 'FileEditorObservation', is_error: true } });
  });

  it('stops a command at its timeout, cuts long output, and replaces only a unique string', async () => {
    // The workspace `start` makes next; the editor takes absolute paths inside it too.
    const next = path.join(root, 'workspaces', `w${counter + 1}`);
    const { id, workspace } = await start([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo started; sleep 30', timeout: 0.5 } }] },
      terminal("head -c 40000 /dev/zero | tr '\\0' a"),
      { toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path: 'notes.txt', file_text: 'one two two\n' } }] },
      { toolCalls: [{ name: 'file_editor', arguments: { command: 'str_replace', path: 'notes.txt', old_str: 'two', new_str: '2' } }] },
      {
        toolCalls: [
          { name: 'file_editor', arguments: { command: 'str_replace', path: `${next}/notes.txt`, old_str: 'one', new_str: '1' } },
        ],
      },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Edited.' } }] },
    ]);
    await server.status(id, 'finished');
    const observations = ofKind(await server.events(id), 'ObservationEvent').map(
      (event) =>
        (event as unknown as { observation: { exit_code?: number; timeout?: boolean; is_error: boolean; content: { text: string }[] } })
          .observation,
    );
    expect(observations[0]).toMatchObject({ exit_code: -1, timeout: true, content: [{ text: expect.stringContaining('started') }] });
    expect(observations[1]?.content[0]?.text).toContain('output cut: 10000 characters left out of 40000');
    expect(observations[1]?.content[0]?.text.length).toBeLessThan(31_000);
    expect(observations[3]).toMatchObject({ is_error: true, content: [{ text: expect.stringContaining('appears 2 times') }] });
    expect(observations[4]).toMatchObject({ is_error: false });
    expect(fs.readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe('1 two two\n');
    expect(observations[5]).toMatchObject({ kind: 'FinishObservation', content: [{ text: 'Edited.' }] });
  });

  it('masks a secret that the output cap of the terminal or the file view cuts in two', async () => {
    const filler = (count: number, char: string) => `head -c ${count} /dev/zero | tr '\\0' ${char}`;
    // The secret spans both cut points of the terminal (15 000 characters from each end of its output)…
    const printed = `${filler(14_990, 'a')}; printf %s "$MY_TOKEN"; ${filler(20_000, 'b')}; printf %s "$MY_TOKEN"; ${filler(14_990, 'c')}`;
    // …and the file view's cut at 30 000 characters (its line numbers come first).
    const written = `{ ${filler(29_980, 'a')}; printf %s "$MY_TOKEN"; ${filler(100, 'b')}; } > long.txt`;
    const { id, workspace } = await start(
      [
        terminal(`${written}; ${printed}`),
        { toolCalls: [{ name: 'file_editor', arguments: { command: 'view', path: 'long.txt' } }] },
        { text: 'Done.' },
      ],
      { secrets: { MY_TOKEN: { kind: 'StaticSecret', value: SECRET } } },
    );
    await server.status(id, 'finished');
    const observations = ofKind(await server.events(id), 'ObservationEvent');
    expect(JSON.stringify(observations[0])).toContain('output cut');
    expect(JSON.stringify(observations[1])).toContain('cut: view a range of lines');
    const stored = JSON.stringify(observations);
    for (let at = 0; at + 8 <= SECRET.length; at++) expect(stored).not.toContain(SECRET.slice(at, at + 8));
    expect(JSON.stringify(llm!.requests)).not.toContain(SECRET.slice(0, 8));
    // The agent wrote the secret there itself; the last test looks for it in every file.
    fs.rmSync(path.join(workspace, 'long.txt'));
  });

  it('keeps multi-byte characters whole across chunks of output', async () => {
    // 75 000 bytes: more than one pipe read, and 3-byte characters do not fit a 64 KiB chunk evenly.
    const { id } = await start([terminal("yes '€' | head -n 25000 | tr -d '\\n'"), { text: 'Done.' }]);
    await server.status(id, 'finished');
    const observation = ofKind(await server.events(id), 'ObservationEvent')[0] as unknown as {
      observation: { content: { text: string }[] };
    };
    expect(observation.observation.content[0]?.text).toBe('€'.repeat(25_000));
  });

  it('replies to a message that came in while a reply with [terminal, finish] was running', async () => {
    // The command waits for the test to let it end, so the message surely arrives while it runs.
    const { id, workspace } = await start([
      {
        toolCalls: [
          { name: 'terminal', arguments: { command: 'until [ -f go ]; do sleep 0.05; done' } },
          { name: 'finish', arguments: { message: 'First task done.' } },
        ],
      },
      { text: 'Replying to the later message.' },
    ]);
    await server.waitForEvents(id, (found) => ofKind(found, 'ActionEvent').length === 2, 'the two actions');
    const sent = await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'One more thing.' }],
      run: true,
    });
    expect(sent.status).toBe(200);
    fs.writeFileSync(path.join(workspace, 'go'), '');
    await llm!.waitForRequests(2);
    expect(JSON.stringify(llm!.requests[1]?.messages)).toContain('One more thing.');
    await server.status(id, 'finished');
    const events = await server.events(id);
    expect(ofKind(events, 'MessageEvent').at(-1)).toMatchObject({
      source: 'agent',
      llm_message: { content: [{ text: 'Replying to the later message.' }] },
    });
    expect(llm!.requests).toHaveLength(2);
  });

  it('has written the LLM key and secrets nowhere: not in its output, an event or a file', async () => {
    // A run of its own, so the check holds when this test runs alone.
    const { id } = await start([terminal('echo "token:$MY_TOKEN"'), { text: 'Checked.' }], {
      secrets: { MY_TOKEN: { kind: 'StaticSecret', value: SECRET } },
    });
    await server.status(id, 'finished');
    expect(llm!.requests.map((request) => request.authorization)).toEqual([`Bearer ${LLM_KEY}`, `Bearer ${LLM_KEY}`]);
    expect(JSON.stringify(await server.events(id))).toContain('token:<secret:MY_TOKEN>');
    expect(server.output()).not.toContain(LLM_KEY);
    expect(server.output()).not.toContain(SECRET);
    for (const file of fs.readdirSync(root, { recursive: true }).map(String)) {
      const full = path.join(root, file);
      if (fs.statSync(full).isFile()) {
        const content = fs.readFileSync(full, 'utf8');
        expect(content, file).not.toContain(LLM_KEY);
        expect(content, file).not.toContain(SECRET);
      }
    }
  });
});

/** Frames of a socket until `last` matches one. */
async function collectFrames(url: string, last: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>[]> {
  const socket = server.socket(`${url}${url.includes('?') ? '&' : '?'}session_api_key=${server.key}`);
  const frames: Record<string, unknown>[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      frames.push(frame);
      if (last(frame)) resolve();
    });
    socket.on('close', () => reject(new Error('closed early')));
  });
  socket.removeAllListeners('close');
  socket.close();
  return frames;
}
