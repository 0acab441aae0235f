import http from 'node:http';
import type net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MODEL } from '../../../src/contract/demo-model';
import { type OpenAiStub, startOpenAiStub } from '../../testing/openai-stub';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { closedPort } from '../../testing/closed-port';

const STORED_KEY = 'sk-stored-4f1d9c2b7e';
const TYPED_KEY = 'sk-typed-8a3e5d0c61';

let llm: OpenAiStub;
let t: TestApp;
let log: string;
beforeAll(async () => {
  llm = await startOpenAiStub();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(async () => {
  log = '';
  t = await startTestApp({ logStream: { write: (line: string) => void (log += line) } });
});
afterEach(async () => {
  await t.close();
});

const testLlm = async (body: unknown) => {
  const response = await t.request({
    method: 'POST',
    url: '/api/llm/test',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.statusCode, body: response.json(), text: response.body };
};

describe('POST /api/llm/test', () => {
  it("shows the model's reply, sent with the stored key when none is typed", async () => {
    await t.postSettings({ llm_model: 'openai/other-model', llm_base_url: llm.baseUrl, llm_api_key: STORED_KEY });
    llm.enqueue({ text: 'Ready when you are.' });
    const before = llm.requests.length;
    const { status, body } = await testLlm({ model: 'openai/gpt-test', base_url: llm.baseUrl, api_key: null });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, model: 'gpt-test', reply: 'Ready when you are.' });
    const sent = llm.requests.slice(before);
    expect(sent).toHaveLength(1);
    // The form's model, without the provider prefix the client drops, and the stored key.
    expect(sent[0]?.model).toBe('gpt-test');
    expect(sent[0]?.authorization).toBe(`Bearer ${STORED_KEY}`);
  });

  it('sends a typed key instead of the stored one, and none for an empty one', async () => {
    await t.postSettings({ llm_api_key: STORED_KEY });
    const before = llm.requests.length;
    await testLlm({ model: 'gpt-test', base_url: llm.baseUrl, api_key: TYPED_KEY });
    await testLlm({ model: 'gpt-test', base_url: llm.baseUrl, api_key: '' });
    const [typed, none] = llm.requests.slice(before);
    expect(typed?.authorization).toBe(`Bearer ${TYPED_KEY}`);
    expect(none?.authorization).not.toContain(STORED_KEY);
  });

  it('says in words that the key was rejected, never naming the key', async () => {
    await t.postSettings({ llm_base_url: llm.baseUrl, llm_api_key: STORED_KEY });
    // Some providers quote the key they refuse.
    llm.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${STORED_KEY}`, type: 'invalid_request_error' } } });
    const { status, body, text } = await testLlm({ model: 'gpt-test', base_url: llm.baseUrl });
    expect(status).toBe(200);
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/^The provider rejected the API key \(HTTP 401: Incorrect API key provided: \*\*\*\)/);
    expect(text).not.toContain(STORED_KEY);
    expect(log).toContain('LLM test done');
    expect(log).not.toContain(STORED_KEY);
  });

  it('never sends the stored key to a base URL other than the stored one', async () => {
    await t.postSettings({ llm_base_url: 'https://llm.example.test/v1', llm_api_key: STORED_KEY });
    const before = llm.requests.length;
    const { status, body, text } = await testLlm({ model: 'gpt-test', base_url: llm.baseUrl, api_key: null });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(['body', 'api_key']);
    expect(text).not.toContain(STORED_KEY);
    expect(llm.requests.length).toBe(before);
  });

  it('shows and logs a base URL without the credentials or query it may carry', async () => {
    const url = `http://user:hunter2-pass@127.0.0.1:${await closedPort()}/v1?api-key=query-secret-77`;
    const { body, text } = await testLlm({ model: 'gpt-test', base_url: url, api_key: TYPED_KEY });
    expect(body.ok).toBe(false);
    for (const secret of ['hunter2-pass', 'query-secret-77', TYPED_KEY]) {
      expect(text).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
  });

  it('says a model the endpoint does not know was not found', async () => {
    llm.enqueue({ status: 404, body: { error: { message: 'The model `nope` does not exist', type: 'invalid_request_error' } } });
    const { body } = await testLlm({ model: 'nope', base_url: llm.baseUrl, api_key: TYPED_KEY });
    expect(body).toEqual({
      ok: false,
      error: expect.stringMatching(/^Not found \(HTTP 404: The model `nope` does not exist\): the model "nope" does not exist at/),
    });
  });

  it('says what an internal service answered with its status only, never what it sent', async () => {
    const internal = http.createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'text/plain' }).end('internal only: the password is swordfish'),
    );
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(internal.address() as net.AddressInfo).port}/v1`;
      const { body, text } = await testLlm({ model: 'gpt-test', base_url: url, api_key: TYPED_KEY });
      expect(body.error).toMatch(/^Not found \(HTTP 404\): the model "gpt-test" does not exist at/);
      expect(text).not.toContain('swordfish');
    } finally {
      await new Promise((resolve) => internal.close(resolve));
    }
  });

  it('says an unreachable base URL cannot be reached, never naming the key', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { status, body, text } = await testLlm({ model: 'gpt-test', base_url: url, api_key: TYPED_KEY });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: expect.stringMatching(new RegExp(`^Cannot reach ${url} \\(.*ECONNREFUSED`)) });
    expect(text).not.toContain(TYPED_KEY);
    expect(log).not.toContain(TYPED_KEY);
  });

  it('replies for the demo model without a request', async () => {
    const before = llm.requests.length;
    const { body } = await testLlm({ model: DEMO_MODEL, base_url: 'http://127.0.0.1:9/v1' });
    expect(body).toEqual({ ok: true, model: DEMO_MODEL, reply: expect.stringContaining('demo model') });
    expect(llm.requests.length).toBe(before);
  });

  it('refuses a blank model and a base URL that is not http(s), without echoing the key', async () => {
    const { status, body, text } = await testLlm({ model: ' ', base_url: 'ftp://example.com', api_key: TYPED_KEY });
    expect(status).toBe(422);
    expect(body.detail.map((entry: { loc: unknown[] }) => entry.loc)).toEqual([
      ['body', 'model'],
      ['body', 'base_url'],
    ]);
    expect(text).not.toContain(TYPED_KEY);
  });
});
