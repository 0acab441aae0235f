import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PROVIDERS } from '../../src/contract/secrets';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import { startTestApp, type TestApp } from '../testing/test-app';
import { report, SEED, size } from './soak';

/**
 * Fuzzing every route of the real server (in process, `inject`) with
 * fast-check: bodies shaped like the route's with wrong values, and raw garbage (types, huge and
 * deep values, unicode, `__proto__`, invalid UTF-8, other content types). Never a 5xx; every 422
 * a well-formed `detail`; stored data unchanged by every refused request. Nothing generated ever
 * reaches beyond loopback: MCP tests get loopback URLs or non-URLs and commands that do not exist,
 * and no sandbox spec that exists is ever asked for.
 */

const RUNS = size(150, 650); // per property, of which there are 17: over 10,000 requests in a soak
let t: TestApp;
let requests = 0;
let refused = 0;
let snapshot = '';
/** A stored conversation the PATCH routes are tried on. */
const KEPT_CONVERSATION = 'c'.repeat(32);

/** Every stored row the API's routes write, as stored (secrets sealed: a rewrite shows even where GETs hide values). */
const stored = async () => {
  const [settings, tokens, secrets, sandboxes, conversations, tasks] = await Promise.all([
    t.db.selectFrom('user_settings').select(['user_id', 'document']).execute(),
    t.db.selectFrom('provider_tokens').select(['provider', 'token', 'host']).orderBy('provider').execute(),
    t.db.selectFrom('custom_secrets').select(['name', 'value', 'description', 'seq']).orderBy('seq').execute(),
    t.db.selectFrom('sandboxes').select(['id']).orderBy('id').execute(),
    t.db.selectFrom('app_conversations').select(['id', 'title', 'archived']).orderBy('id').execute(),
    t.db.selectFrom('start_tasks').select(['id']).orderBy('id').execute(),
  ]);
  return JSON.stringify({ settings, tokens, secrets, sandboxes, conversations, tasks });
};

beforeAll(async () => {
  t = await startTestApp();
  // Something stored, so a refused request has something to spoil.
  await t.postSettings({ llm_model: 'kept', mcp_config: { stdio_servers: [{ name: 'kept', command: 'no-such-command' }] } });
  await t.request({ method: 'POST', url: '/api/secrets', payload: { name: 'KEPT', value: 'v' } });
  const now = new Date().toISOString();
  await t.db
    .insertInto('app_conversations')
    .values({
      id: KEPT_CONVERSATION,
      user_id: 'default',
      sandbox_id: 'gone',
      sandbox_created: 0,
      title: 'kept',
      pr_number: '[]',
      skills: '[]',
      archived: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  snapshot = await stored();
});
afterAll(async () => {
  await t.close();
  report('fuzz', { requests, refused });
});

const otherBody = z.object({ detail: z.optional(z.unknown()), error: z.optional(z.string()), message: z.optional(z.string()) });

interface Sent {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: string | Buffer;
  contentType?: string;
}

/** Sends one request and checks what the suite promises about its response. */
async function check({ method, url, payload, contentType }: Sent): Promise<void> {
  const response = await t.request({ method, url, payload, headers: contentType ? { 'content-type': contentType } : {} });
  requests++;
  const what = `${method} ${url.slice(0, 120)} (${contentType ?? 'no content type'}): ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  if (response.statusCode < 400) {
    snapshot = await stored(); // accepted: this is what is stored now
    return;
  }
  refused++;
  const body: unknown = JSON.parse(response.body);
  if (response.statusCode === 422) {
    const parsed = validationErrorBodySchema.safeParse(body);
    expect(parsed.success, what).toBe(true);
    expect(parsed.data?.detail.length, what).toBeGreaterThan(0);
  } else {
    const parsed = otherBody.safeParse(body);
    expect(parsed.success && Object.values(parsed.data).some((v) => v !== undefined), what).toBe(true);
  }
  expect(await stored(), `stored data changed by a refused request: ${what}`).toBe(snapshot);
}

// --- values ---

/** Any JSON value, a little of everything (wrong types for every field). */
const anyValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 5 }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', '0', '-1', '1e999', 'null', 'x'.repeat(300)),
);
const nameLike = fc.oneof(fc.string({ maxLength: 20 }), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/), fc.constant('n'.repeat(300)));
/** Never a URL with a host, or a loopback one where nothing listens: no request leaves the machine. */
const safeUrl = fc.oneof(
  fc.string({ maxLength: 30 }).filter((s) => !s.includes('//')),
  fc.constantFrom('http://127.0.0.1:1/sse', 'https://127.0.0.1:1/mcp', 'ws://127.0.0.1:1/', 'ftp://127.0.0.1/', 'http://', ''),
);

const mcpConfig = fc.record(
  {
    sse_servers: fc.oneof(anyValue, fc.array(fc.record({ url: safeUrl, api_key: anyValue }, { requiredKeys: [] }), { maxLength: 4 })),
    shttp_servers: fc.oneof(
      anyValue,
      fc.array(fc.record({ url: safeUrl, api_key: anyValue, timeout: anyValue }, { requiredKeys: [] }), { maxLength: 4 }),
    ),
    stdio_servers: fc.oneof(
      anyValue,
      fc.array(
        fc.record(
          {
            name: nameLike,
            command: fc.oneof(anyValue, fc.constant('no-such-command')),
            args: anyValue,
            env: fc.oneof(anyValue, fc.dictionary(nameLike, anyValue, { maxKeys: 4 })),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 4 },
      ),
    ),
    extra: anyValue,
  },
  { requiredKeys: [] },
);
const providerTokens = fc.oneof(
  anyValue,
  fc.dictionary(
    fc.oneof(fc.constantFrom(...PROVIDERS), fc.string()),
    fc.oneof(anyValue, fc.record({ token: anyValue, host: anyValue }, { requiredKeys: [] })),
    { maxKeys: 4 },
  ),
);
const customSecrets = fc.oneof(
  anyValue,
  fc.dictionary(nameLike, fc.oneof(anyValue, fc.record({ secret: anyValue, description: anyValue }, { requiredKeys: [] })), { maxKeys: 4 }),
);

const settingsBody = fc.record(
  {
    llm_model: anyValue,
    llm_api_key: anyValue,
    llm_base_url: fc.oneof(anyValue, safeUrl),
    max_iterations: anyValue,
    max_budget_per_task: anyValue,
    confirmation_mode: anyValue,
    email: anyValue,
    mcp_config: fc.oneof(anyValue, mcpConfig),
    secrets_store: fc.oneof(anyValue, fc.record({ provider_tokens: providerTokens, custom_secrets: customSecrets }, { requiredKeys: [] })),
    unknown_field: anyValue,
  },
  { requiredKeys: [] },
);
const gitProvidersBody = fc.record({ provider_tokens: providerTokens, mcp_config: fc.oneof(anyValue, mcpConfig) }, { requiredKeys: [] });
const secretBody = fc.record({ name: fc.oneof(anyValue, nameLike), value: anyValue, description: anyValue }, { requiredKeys: [] });
const mcpTestBody = fc.record(
  {
    kind: fc.oneof(fc.constantFrom('stdio', 'sse', 'shttp'), anyValue),
    name: nameLike,
    command: fc.oneof(fc.constant('no-such-mcp-command'), fc.integer(), fc.constant(''), fc.constant('two words')),
    args: anyValue,
    env: fc.oneof(anyValue, fc.dictionary(nameLike, anyValue, { maxKeys: 3 })),
    url: safeUrl,
    api_key: anyValue,
    timeout: anyValue,
  },
  { requiredKeys: [] },
);

/** Raw bodies that are not what any route takes. */
const garbage: fc.Arbitrary<{ payload: string | Buffer; contentType?: string }> = fc.oneof(
  fc.json().map((payload) => ({ payload })),
  fc.string().map((payload) => ({ payload })),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ payload: Buffer.from(bytes) })),
  fc.integer({ min: 1, max: 6000 }).map((depth) => ({ payload: `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}` })),
  fc
    .integer({ min: 60_000, max: 80_000 })
    .map((length) => ({ payload: JSON.stringify({ llm_model: 'x'.repeat(length), name: 'y'.repeat(length) }) })),
  fc.constant({ payload: `{"llm_model":"${'x'.repeat(1_100_000)}"}` }),
  fc
    .constantFrom(
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"a":"\\ud800"}',
      '{"\\udfff":1}',
      '"\\u0000"',
      '[]',
      'null',
      '1e999',
    )
    .map((payload) => ({ payload })),
  fc
    .tuple(
      fc.json(),
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json; charset=latin1',
        'application/octet-stream',
      ),
    )
    .map(([payload, contentType]) => ({ payload, contentType })),
);

const segment = fc
  .oneof(fc.string({ maxLength: 40 }), fc.constantFrom('..', '%00', 'x'.repeat(3000), '😀', '__proto__'))
  .map(encodeURIComponent);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'limit',
        'page_id',
        'id',
        'ids',
        'tail',
        'timeout',
        'status__eq',
        'sandbox_spec_id__eq',
        'title__contains',
        'created_at__gte',
        'updated_at__lt',
        'sort_order',
        'archived',
        'conversation_id__eq',
        'x',
      ),
      fc.string({ maxLength: 20 }),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&'));
/** A sandbox spec id that exists would start a real sandbox: never asked for. */
const specId = fc
  .string({ maxLength: 30 })
  .filter((id) => id !== 'agent-server')
  .map(encodeURIComponent);

const json = (body: unknown): Sent['payload'] => JSON.stringify(body);

/** A rename or an archive, with wrong values too. (Starting conversations is left out: a valid start runs real sandboxes.) */
const conversationPatchBody = fc.record({ title: fc.oneof(anyValue, nameLike), archived: anyValue }, { requiredKeys: [] });

/** Runs a property over `arbitrary`, with the seed of the run (printed by fast-check when it fails). */
const fuzz = <T>(arbitrary: fc.Arbitrary<T>, send: (value: T) => Sent) =>
  fc.assert(
    fc.asyncProperty(arbitrary, async (value) => check(send(value))),
    { seed: SEED, numRuns: RUNS },
  );

const BODY_ROUTES: { method: Sent['method']; url: string; shaped?: fc.Arbitrary<unknown> }[] = [
  { method: 'POST', url: '/api/settings', shaped: settingsBody },
  { method: 'POST', url: '/api/add-git-providers', shaped: gitProvidersBody },
  { method: 'POST', url: '/api/secrets', shaped: secretBody },
  { method: 'PUT', url: '/api/secrets/KEPT', shaped: secretBody },
  { method: 'POST', url: '/api/mcp/test?timeout=1', shaped: mcpTestBody },
  { method: 'POST', url: '/api/unset-provider-tokens' },
  { method: 'POST', url: '/api/v1/sandboxes?sandbox_spec_id=no-such-spec' },
  { method: 'POST', url: '/api/v1/sandboxes/no-such-id/pause' },
  { method: 'PATCH', url: `/api/v1/app-conversations/${KEPT_CONVERSATION}`, shaped: conversationPatchBody },
  { method: 'PATCH', url: `/api/conversations/${KEPT_CONVERSATION}`, shaped: conversationPatchBody },
];

describe('fuzzing every route', () => {
  for (const route of BODY_ROUTES) {
    if (route.shaped) {
      const shaped = route.shaped;
      it(`${route.method} ${route.url}: shaped bodies with wrong values`, async () => {
        await fuzz(shaped, (body) => ({ method: route.method, url: route.url, payload: json(body), contentType: 'application/json' }));
      });
    }
    it(`${route.method} ${route.url}: garbage`, async () => {
      await fuzz(garbage, ({ payload, contentType }) => ({
        method: route.method,
        url: route.url,
        payload,
        contentType: contentType ?? 'application/json',
      }));
    });
  }

  it('secrets by name: PUT and DELETE with odd names and bodies', async () => {
    await fuzz(fc.tuple(segment, fc.constantFrom<Sent['method']>('PUT', 'DELETE'), secretBody), ([name, method, body]) => ({
      method,
      url: `/api/secrets/${name}`,
      ...(method === 'PUT' ? { payload: json(body), contentType: 'application/json' } : {}),
    }));
  });

  it('sandboxes by id: pause, resume, delete and logs', async () => {
    const action = fc.constantFrom(
      (id: string, q: string) => ({ method: 'POST' as const, url: `/api/v1/sandboxes/${id}/pause?${q}` }),
      (id: string, q: string) => ({ method: 'POST' as const, url: `/api/v1/sandboxes/${id}/resume?${q}` }),
      (id: string, q: string) => ({ method: 'DELETE' as const, url: `/api/v1/sandboxes/${id}?${q}` }),
      (id: string) => ({ method: 'DELETE' as const, url: `/api/v1/sandboxes?sandbox_id=${id}` }),
      (id: string, q: string) => ({ method: 'GET' as const, url: `/api/v1/sandboxes/${id}/logs?${q}` }),
    );
    await fuzz(fc.tuple(action, segment, query), ([make, id, q]) => make(id, q));
  });

  it('conversations by id: PATCH and DELETE with odd ids', async () => {
    await fuzz(fc.tuple(segment, fc.constantFrom<Sent['method']>('PATCH', 'DELETE'), conversationPatchBody), ([id, method, body]) => ({
      method,
      url: `/api/v1/app-conversations/${id}`,
      ...(method === 'PATCH' ? { payload: json(body), contentType: 'application/json' } : {}),
    }));
  });

  it('starting a sandbox from a spec that does not exist', async () => {
    await fuzz(fc.tuple(specId, query), ([spec, q]) => ({ method: 'POST', url: `/api/v1/sandboxes?sandbox_spec_id=${spec}&${q}` }));
  });

  it('every GET with odd queries', async () => {
    const get = fc.constantFrom(
      '/api/settings',
      '/api/secrets',
      '/api/v1/sandboxes/search',
      '/api/v1/sandboxes',
      '/api/v1/sandbox-specs/search',
      '/api/v1/sandbox-specs',
      '/api/v1/app-conversations/search',
      '/api/v1/app-conversations/count',
      '/api/v1/app-conversations',
      '/api/v1/app-conversations/start-tasks',
      '/api/v1/app-conversations/start-tasks/search',
      '/api/v1/app-conversations/start-tasks/count',
      '/alive',
      '/health',
      '/openapi.json',
      '/api/nope',
    );
    await fuzz(fc.tuple(get, query), ([url, q]) => ({ method: 'GET', url: `${url}?${q}` }));
  });

  it('runs as many requests as planned', () => {
    expect(requests).toBeGreaterThanOrEqual(RUNS * 17);
  });
});
