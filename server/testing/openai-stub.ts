import http from 'node:http';
import type net from 'node:net';

/*
 * A local OpenAI-compatible Chat Completions endpoint for tests: it plays back a script of
 * replies (text, tool calls, usage; SSE chunks when the request streams) or errors, and records
 * every request it gets.
 *
 *   const llm = await startOpenAiStub([{ toolCalls: [{ name: 'terminal', arguments: { command: 'ls' } }] }, { text: 'Done.' }]);
 *   … start a conversation with base_url llm.baseUrl …
 *   await llm.close();
 */

export interface StubToolCall {
  name: string;
  /** An object is sent as its JSON text. */
  arguments: object | string;
  id?: string;
}

export type StubReply =
  /** A completion: text and/or tool calls (none: the agent's turn ends). */
  | { text?: string; toolCalls?: StubToolCall[]; usage?: { prompt_tokens: number; completion_tokens: number } }
  /** An error response, e.g. `{ status: 401 }`, `{ status: 429 }` or a context overflow (`contextOverflow()`). */
  | { status: number; body?: object }
  /** No response at all until the client gives up or the stub closes (a call in flight). */
  | { hang: true };

export interface StubRequest {
  model: string;
  /** The `Authorization` header as sent. */
  authorization: string | undefined;
  messages: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  /** The tools offered, as sent. */
  tools: { type: string; function: { name: string; description?: string; parameters?: unknown } }[] | undefined;
  stream: boolean;
  body: Record<string, unknown>;
}

export interface OpenAiStub {
  /** The base URL to give the client (ends with `/v1`). */
  baseUrl: string;
  /** Every request, in order. */
  requests: StubRequest[];
  /** Appends replies to the script. */
  enqueue(...replies: StubReply[]): void;
  /** What it replies when the script is used up (default: the text "Done."). */
  otherwise(reply: StubReply): void;
  /** Resolves once it has received `count` requests in all. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_USAGE = { prompt_tokens: 1000, completion_tokens: 100 };

/** A 400 as OpenAI words a context overflow. */
export const contextOverflow = (): StubReply => ({
  status: 400,
  body: {
    error: {
      message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
});

const errorBody = (status: number) => ({
  error: { message: `Stub error ${status}`, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: null },
});

function completion(id: string, model: string, reply: Extract<StubReply, { text?: string }>) {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${id}_${i}`,
    type: 'function' as const,
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const usage = reply.usage ?? DEFAULT_USAGE;
  return {
    toolCalls,
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    text: reply.text ?? null,
    id,
    model,
  };
}

/** The reply as SSE chunks, the way OpenAI streams: role, text pieces, tool call pieces, finish, usage. */
function streamChunks(reply: ReturnType<typeof completion>, includeUsage: boolean): object[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null = null) => ({
    id: reply.id,
    object: 'chat.completion.chunk',
    created,
    model: reply.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '' })];
  const text = reply.text ?? '';
  for (let i = 0; i < text.length; i += 8) chunks.push(chunk({ content: text.slice(i, i + 8) }));
  reply.toolCalls.forEach((call, index) => {
    const args = call.function.arguments;
    const half = Math.floor(args.length / 2);
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: args.slice(0, half) } }],
      }),
    );
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  chunks.push(chunk({}, reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'));
  if (includeUsage)
    chunks.push({ id: reply.id, object: 'chat.completion.chunk', created, model: reply.model, choices: [], usage: reply.usage });
  return chunks;
}

/** Where it listens, and the name clients reach that address by (a container: `host.docker.internal`). */
export interface StubAddress {
  host: string;
  reachedAs: string;
}

export async function startOpenAiStub(
  script: StubReply[] = [],
  address: StubAddress = { host: '127.0.0.1', reachedAs: '127.0.0.1' },
): Promise<OpenAiStub> {
  const queue = [...script];
  let fallback: StubReply = { text: 'Done.' };
  const requests: StubRequest[] = [];
  const waiters: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  let count = 0;

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(404)));
        return;
      }
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const stream = body.stream === true;
      requests.push({
        model: String(body.model),
        authorization: request.headers.authorization,
        messages: (body.messages ?? []) as StubRequest['messages'],
        tools: body.tools as StubRequest['tools'],
        stream,
        body,
      });
      for (const wake of waiters.splice(0)) wake();
      const reply = queue.shift() ?? fallback;
      if ('hang' in reply) return;
      if ('status' in reply) {
        // `retry-after-ms` keeps the client's retries quick.
        response
          .writeHead(reply.status, { 'content-type': 'application/json', 'retry-after-ms': '10' })
          .end(JSON.stringify(reply.body ?? errorBody(reply.status)));
        return;
      }
      const done = completion(`chatcmpl-stub-${++count}`, String(body.model), reply);
      if (!stream) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: done.id,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: done.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: done.text, ...(done.toolCalls.length ? { tool_calls: done.toolCalls } : {}) },
                finish_reason: done.toolCalls.length ? 'tool_calls' : 'stop',
              },
            ],
            usage: done.usage,
          }),
        );
        return;
      }
      const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of streamChunks(done, includeUsage)) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, address.host, resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    baseUrl: `http://${address.reachedAs}:${port}/v1`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    otherwise: (reply) => (fallback = reply),
    async waitForRequests(wanted, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < wanted) {
        if (Date.now() > deadline) throw new Error(`The LLM stub got ${requests.length} requests, not ${wanted}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
