import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { AddressInfo } from 'node:net';
import { OPENHANDS_OPENAPI } from './openapi';
import { matchingEvents, openHandsEventPage } from './event-search';
import { readSettings, storeSettings } from './settings';
import { DEFAULT_SPEC_ID, emptyState, type FakeOpenHandsState, OTHER_SPEC_ID, addSandbox } from './state';

/*
 * A small stand-in for a real OpenHands app server at the pinned commit, in memory, with exactly
 * the quirks the spec notes list (openhands-conversations.md "what breaks", openhands-api.md §4,
 * §10, §12, §15): sandbox search ignores `status__eq` and `sandbox_spec_id__eq`; the sandbox
 * DELETE reads `sandbox_id` from the query (422 without it); secret PUT ignores `value`; settings
 * return 404 until stored and a POST replaces them; MCP api keys come back in clear; conversations
 * are renamed and deleted through the legacy routes only; events are searched, never streamed.
 */

export interface FakeOpenHands {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  state: FakeOpenHandsState;
  /** "METHOD /path?query" of every request, in order. */
  requests: string[];
  close: () => Promise<void>;
}

const NOT_FOUND = { detail: 'Not Found' };

/** FastAPI's 422 for a required query parameter left out. */
const missingQuery = (name: string) => ({ detail: [{ type: 'missing', loc: ['query', name], msg: 'Field required', input: null }] });

type Query = Record<string, string | string[] | undefined>;
const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const one = (value: string | string[] | undefined) => list(value)[0];

/** An offset page of `items`, as OpenHands' sandbox and conversation searches page. */
function offsetPage<T>(items: T[], query: Query) {
  const start = Number(one(query.page_id) ?? 0);
  const limit = Number(one(query.limit) ?? 100);
  const end = start + limit;
  return { items: items.slice(start, end), next_page_id: end < items.length ? String(end) : null };
}

export async function startFakeOpenHands({ sessionKey }: { sessionKey: string }): Promise<FakeOpenHands> {
  const state = emptyState();
  const requests: string[] = [];
  const app = Fastify({ logger: false });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url.startsWith('/api/') && request.headers['x-session-api-key'] !== sessionKey) {
      return reply.status(401).send({ detail: 'Unauthorized' });
    }
  });
  app.setNotFoundHandler(async (_request, reply) => reply.status(404).send(NOT_FOUND));

  app.get('/openapi.json', async () => OPENHANDS_OPENAPI);

  // --- settings, options, secrets (legacy routes) ---
  app.get('/api/settings', async (_request, reply) => {
    const { status, body } = readSettings(state);
    return reply.status(status).send(body);
  });
  app.post('/api/settings', async (request, reply) => {
    const { status, body } = storeSettings(state, request.body);
    return reply.status(status).send(body);
  });
  app.get('/api/options/models', async () => ['anthropic/claude-sonnet-4-5-20250929', 'openai/gpt-5']);
  app.get('/api/options/agents', async () => ['CodeActAgent']);
  app.get('/api/options/security-analyzers', async () => ['llm', 'invariant']);

  app.get('/api/secrets', async () => ({ custom_secrets: state.secrets.map(({ name, description }) => ({ name, description })) }));
  app.post('/api/secrets', async (request, reply) => {
    const { name, value, description } = (request.body ?? {}) as { name?: string; value?: string; description?: string | null };
    if (typeof name !== 'string' || typeof value !== 'string') return reply.status(422).send(missingQuery('value'));
    if (state.secrets.some((secret) => secret.name === name)) return reply.status(400).send({ message: `Secret ${name} already exists` });
    state.secrets.push({ name, value, description: description ?? '' });
    return reply.status(201).send({ message: 'Secret created successfully' });
  });
  app.put<{ Params: { id: string } }>('/api/secrets/:id', async (request, reply) => {
    const index = state.secrets.findIndex((secret) => secret.name === request.params.id);
    if (index < 0) return reply.status(404).send({ error: `Secret with ID ${request.params.id} not found` });
    // `value` is not part of the model: ignored, and still a 200.
    const { name, description } = (request.body ?? {}) as { name?: string; description?: string | null };
    const newName = name ?? request.params.id;
    if (newName !== request.params.id && state.secrets.some((secret) => secret.name === newName)) {
      return reply.status(400).send({ message: `Secret ${newName} already exists` });
    }
    const [secret] = state.secrets.splice(index, 1);
    state.secrets.push({ name: newName, value: secret!.value, description: description ?? '' });
    return { message: 'Secret updated successfully' };
  });
  app.delete<{ Params: { id: string } }>('/api/secrets/:id', async (request, reply) => {
    const index = state.secrets.findIndex((secret) => secret.name === request.params.id);
    if (index < 0) return reply.status(404).send({ error: `Secret with ID ${request.params.id} not found` });
    state.secrets.splice(index, 1);
    return { message: 'Secret deleted successfully' };
  });

  // --- sandboxes and specs ---
  const specs = [DEFAULT_SPEC_ID, OTHER_SPEC_ID].map((id) => ({
    id,
    command: ['--port', '8000'],
    created_at: '2026-11-26T08:00:00.000000Z',
    initial_env: { LOG_JSON: 'true' },
    working_dir: '/workspace/project',
  }));
  app.get<{ Querystring: Query }>('/api/v1/sandbox-specs/search', async (request) => offsetPage(specs, request.query));

  // status__eq and sandbox_spec_id__eq are not parameters of this route: every sandbox comes back.
  app.get<{ Querystring: Query }>('/api/v1/sandboxes/search', async (request) => offsetPage([...state.sandboxes].reverse(), request.query));
  app.get<{ Querystring: Query }>('/api/v1/sandboxes', async (request, reply) => {
    const ids = list(request.query.id);
    if (ids.length === 0) return reply.status(422).send(missingQuery('id'));
    return ids.map((id) => state.sandboxes.find((sandbox) => sandbox.id === id) ?? null);
  });
  app.post<{ Querystring: Query }>('/api/v1/sandboxes', async (request, reply) => {
    const specId = one(request.query.sandbox_spec_id) ?? DEFAULT_SPEC_ID;
    if (!specs.some((spec) => spec.id === specId)) return reply.status(500).type('text/plain').send('Internal Server Error');
    return addSandbox(state, { specId });
  });
  const setStatus = (id: string, status: 'RUNNING' | 'PAUSED') => {
    const sandbox = state.sandboxes.find((candidate) => candidate.id === id);
    if (sandbox) sandbox.status = status;
    return sandbox;
  };
  app.post<{ Params: { id: string } }>('/api/v1/sandboxes/:id/pause', async (request, reply) =>
    setStatus(request.params.id, 'PAUSED') ? { success: true } : reply.status(404).send(NOT_FOUND),
  );
  app.post<{ Params: { id: string } }>('/api/v1/sandboxes/:id/resume', async (request, reply) =>
    setStatus(request.params.id, 'RUNNING') ? { success: true } : reply.status(404).send(NOT_FOUND),
  );
  // Declared `/{id}` with a `sandbox_id` argument: the path is ignored and the query is required.
  app.delete<{ Querystring: Query }>('/api/v1/sandboxes/:id', async (request, reply) => {
    const id = one(request.query.sandbox_id);
    if (id === undefined) return reply.status(422).send(missingQuery('sandbox_id'));
    const index = state.sandboxes.findIndex((sandbox) => sandbox.id === id);
    if (index < 0) return reply.status(404).send(NOT_FOUND);
    state.sandboxes.splice(index, 1);
    return { success: true };
  });
  // Only DELETE is routed there: any GET below /api/v1/sandboxes/ (`capacity` too) is a 405.
  app.get('/api/v1/sandboxes/:id', async (_request, reply) => reply.status(405).send({ detail: 'Method Not Allowed' }));

  // --- conversations (V1 reads, legacy rename and delete) ---
  const withSandbox = (conversation: FakeOpenHandsState['conversations'][number]) => {
    const sandbox = state.sandboxes.find((candidate) => candidate.id === conversation.sandbox_id);
    const running = sandbox?.status === 'RUNNING';
    return {
      ...conversation,
      sandbox_status: sandbox?.status ?? 'MISSING',
      execution_status: running ? 'idle' : null,
      conversation_url: running ? `http://127.0.0.1:1/api/conversations/${conversation.id}` : null,
      session_api_key: running ? sandbox.session_api_key : null,
    };
  };
  const matching = (query: Query) => {
    const title = one(query.title__contains);
    return [...state.conversations]
      .reverse() // CREATED_AT_DESC, whatever sort_order says
      .filter((conversation) => !title || (conversation.title ?? '').includes(title));
  };
  app.get<{ Querystring: Query }>('/api/v1/app-conversations/search', async (request) => {
    const page = offsetPage(matching(request.query), request.query);
    return { ...page, items: page.items.map(withSandbox) };
  });
  app.get<{ Querystring: Query }>('/api/v1/app-conversations/count', async (request) => matching(request.query).length);
  app.get<{ Querystring: Query }>('/api/v1/app-conversations', async (request, reply) => {
    const ids = list(request.query.ids);
    if (ids.length === 0) return reply.status(422).send(missingQuery('ids'));
    return ids.map((id) => {
      const conversation = state.conversations.find((candidate) => candidate.id === id.replaceAll('-', ''));
      return conversation ? withSandbox(conversation) : null;
    });
  });
  app.get('/api/v1/app-conversations/start-tasks/search', async () => ({ items: [], next_page_id: null }));
  app.get<{ Querystring: Query }>('/api/v1/app-conversations/start-tasks', async (request) => list(request.query.ids).map(() => null));

  const findConversation = (id: string) => state.conversations.findIndex((candidate) => candidate.id === id.replaceAll('-', ''));
  app.patch<{ Params: { id: string } }>('/api/conversations/:id', async (request) => {
    const index = findConversation(request.params.id);
    const title = (request.body as { title?: unknown } | undefined)?.title;
    if (index < 0 || typeof title !== 'string') return false;
    state.conversations[index]!.title = title;
    return true;
  });
  app.delete<{ Params: { id: string } }>('/api/conversations/:id', async (request) => {
    const index = findConversation(request.params.id);
    if (index < 0) return false;
    const [conversation] = state.conversations.splice(index, 1);
    state.events.delete(conversation!.id);
    // OpenHands deletes the sandbox too (in the background).
    state.sandboxes = state.sandboxes.filter((sandbox) => sandbox.id !== conversation!.sandbox_id);
    return true;
  });

  // --- events: searched, counted and got by id; no stream ---
  const eventsOf = (query: Query) => state.events.get((one(query.conversation_id__eq) ?? '').replaceAll('-', '')) ?? [];
  // A zoned `timestamp__gte` makes OpenHands compare naive with aware times: a 500.
  const internalError = (reply: FastifyReply) => reply.status(500).send('Internal Server Error');
  app.get<{ Querystring: Query }>('/api/v1/events/search', async ({ query }, reply) => {
    const limit = Number(one(query.limit) ?? 100);
    try {
      return openHandsEventPage(eventsOf(query), { since: one(query.timestamp__gte), limit, pageId: one(query.page_id) });
    } catch {
      return internalError(reply);
    }
  });
  app.get<{ Querystring: Query }>('/api/v1/events/count', async ({ query }, reply) => {
    try {
      return matchingEvents(eventsOf(query), one(query.timestamp__gte)).length;
    } catch {
      return internalError(reply);
    }
  });
  app.get<{ Querystring: Query }>('/api/v1/events', async ({ query }) =>
    list(query.id).map((id) => {
      const hex = id.replaceAll('-', '');
      for (const events of state.events.values()) {
        const event = events.find((candidate) => candidate.id.replaceAll('-', '') === hex);
        if (event) return event;
      }
      return null;
    }),
  );

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, state, requests, close: () => app.close() };
}
