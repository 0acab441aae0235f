import { msg } from '@lingui/core/macro';
import type { Caller } from '../../authz/caller';
import { providerWords } from '../../provider-words';
import { DEMO_MODEL } from '../../../src/contract/demo-model';
import { LLM_TEST_SECONDS, type LlmTestRequest, type LlmTestResult } from '../../../src/contract/llm-test';
import { wireModelName } from '../../agent-server/contract';
import { Invalid } from '../../domain-errors';
import { llmEndpoint, rootCause, shownUrl } from '../../llm-endpoint';
import type { Logger } from '../../logger';
import type { SettingsService } from './settings-service';

const PROMPT = 'Reply with one short sentence saying that you are ready.';
const DEMO_REPLY = `Ready. I am the demo model (${DEMO_MODEL}): I reply without an LLM, so no key or network is needed.`;

/** The OpenAI client, loaded at the first call that needs it, not at every server start. */
const openAi = async () => (await import('openai')).default;

/** Why a request to the LLM failed, in words (the model's URL as it may be shown). */
export async function describeLlmFailure(error: unknown, model: string, url: string, seconds = LLM_TEST_SECONDS): Promise<string> {
  const OpenAI = await openAi();
  if (error instanceof OpenAI.APIConnectionTimeoutError) return `No response from ${url} within ${seconds} seconds.`;
  if (error instanceof OpenAI.APIConnectionError) return `Cannot reach ${url} (${rootCause(error)}). Check the base URL.`;
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    // The SDK's `error` is the JSON body's own (`{message}`); its `message` would quote any body.
    const said = providerWords({ error: error.error });
    const http = `HTTP ${status}${said ? `: ${said}` : ''}`;
    if (status === 401 || status === 403) return `The provider rejected the API key (${http}).`;
    if (status === 404) {
      return `Not found (${http}): the model "${model}" does not exist at ${url}, or the base URL is not an OpenAI-compatible endpoint.`;
    }
    if (status === 429) return `The provider refused for now: rate limit or quota (${http}).`;
    return `The provider responded with ${http}.`;
  }
  return `The test request failed: ${rootCause(error)}.`;
}

/** `text` with every occurrence of `secret` masked: providers sometimes quote the key they refuse. */
export const masked = (text: string, secret: string | null) => (secret ? text.replaceAll(secret, '***') : text);

/**
 * Sends one tiny chat request with LLM settings as typed in the form, the stored key standing in
 * for one not typed. The demo model replies without a request. Failures are results, in words;
 * the key goes only into the request's header.
 */
export class LlmTestService {
  constructor(
    private readonly settings: SettingsService,
    private readonly log: Logger,
    private readonly timeoutMs = LLM_TEST_SECONDS * 1000,
  ) {}

  async test(caller: Caller, request: LlmTestRequest): Promise<LlmTestResult> {
    if (request.model === DEMO_MODEL) return { ok: true, model: DEMO_MODEL, reply: DEMO_REPLY };
    const url = llmEndpoint(request.base_url);
    let apiKey = request.api_key;
    if (apiKey === null) {
      const stored = await this.settings.readWithSecrets(caller);
      apiKey = stored?.llm_api_key ?? null;
      // Else anyone with the session key could send the stored key to a server of their choosing.
      if (apiKey && llmEndpoint(stored?.llm_base_url) !== url) {
        throw new Invalid(['api_key'], msg`Type the key to test another base URL: the stored key only goes to the stored base URL`);
      }
    }
    const result = await this.#send(request.model, url, apiKey || null);
    this.log.info(
      { model: request.model, url: shownUrl(url), ok: result.ok, ...(result.ok ? {} : { reason: result.error }) },
      'LLM test done',
    );
    return result;
  }

  async #send(model: string, url: string, apiKey: string | null): Promise<LlmTestResult> {
    const OpenAI = await openAi();
    const client = new OpenAI({
      // Endpoints without keys (a local model server) still get a header; the client wants one.
      apiKey: apiKey ?? 'no-key',
      baseURL: url,
      maxRetries: 0,
      timeout: this.timeoutMs,
      logLevel: 'off',
    });
    try {
      const completion = await client.chat.completions.create({
        model: wireModelName(model),
        messages: [{ role: 'user', content: PROMPT }],
      });
      const reply = completion.choices[0]?.message.content ?? '';
      return { ok: true, model: completion.model || model, reply: masked(reply, apiKey) };
    } catch (error) {
      // Client errors quote the URL they were given, credentials and query included.
      const words = (await describeLlmFailure(error, model, shownUrl(url))).replace(/https?:\/\/[^\s)]+/g, shownUrl);
      return { ok: false, error: masked(words, apiKey) };
    }
  }
}
