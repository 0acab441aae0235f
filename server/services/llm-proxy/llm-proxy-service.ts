import { msg } from '@lingui/core/macro';
import { finished, pipeline, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { DataAccess } from '../../authz/data-access';
import { asSystem } from '../../authz/caller';
import { llmEndpoint, rootCause, shownUrl } from '../../llm-endpoint';
import { ensureSandboxNetwork } from '../../sandboxes/docker/sandbox-network';
import type { Logger } from '../../logger';
import { Unauthenticated, Unavailable } from '../../domain-errors';
import type { SettingsService } from '../settings/settings-service';
import type { LlmProxyTokens } from './llm-proxy-tokens';
import { callCost } from '../../agent-server/metrics';
import type { LlmPrices } from '../../llm-prices';
import type { Clock } from '../../clock';
import { type CallUsage, UsageMeter } from './usage-meter';

const TASK = 'forward a conversation’s LLM calls';
const LOOPBACK = '127.0.0.1';

/** An upstream response as it is passed on: its status, its type and its body, streamed. */
export interface ForwardedResponse {
  status: number;
  contentType: string | null;
  body: Readable;
}

/** The model a Chat Completions request names. */
function modelOf(body: Buffer): string | null {
  try {
    const { model } = JSON.parse(body.toString('utf8')) as { model?: unknown };
    return typeof model === 'string' ? model : null;
  } catch {
    return null;
  }
}

/** One call passed on, as it is recorded: the model asked for, the LLM's status, the tokens it reported and their cost (null without a price). */
export interface MeteredCall {
  model: string | null;
  status: number;
  usage: CallUsage;
  cost: number | null;
}

/** Starts a listener of the proxy's on `host` (a free port). */
export type ProxyListen = (host: string) => Promise<{ port: number; close: () => Promise<void> }>;

/**
 * The LLM as sandboxes reach it: an agent server is given the proxy's address and its
 * conversation's token (never a key), and each Chat Completions request it sends is passed on to
 * the LLM its conversation's owner has in Settings (or the team's), with their key, read at that
 * moment. The response comes back as the LLM sends it, streamed, and each call is recorded with
 * what its response said it used (tokens, and the cost at the model's price) by user and
 * conversation.
 */
export class LlmProxyService {
  #listen: ProxyListen | undefined;
  #listeners = new Map<string, ReturnType<ProxyListen>>();
  #gateway: Promise<string> | undefined;
  readonly #meters: ((call: MeteredCall) => void)[] = [];

  constructor(
    private readonly data: DataAccess,
    private readonly settings: SettingsService,
    private readonly tokens: LlmProxyTokens,
    private readonly prices: LlmPrices,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** A URL on this machine's loopback as a process sandbox reaches it. */
    private readonly urlFromSandbox: (url: string) => string = (url) => url,
    /** On the Docker runtime: containers reach the proxy on their network's gateway. */
    private readonly docker?: Docker,
  ) {}

  /** Listens on loopback now (process sandboxes reach it there), and on the containers' gateway when first asked. */
  async serve(listen: ProxyListen): Promise<void> {
    this.#listen = listen;
    if (!this.docker) await this.#listenOn(LOOPBACK);
  }

  async close(): Promise<void> {
    const listeners = [...this.#listeners.values()];
    this.#listeners.clear();
    await Promise.all(listeners.map(async (listener) => (await listener.catch(() => undefined))?.close()));
  }

  /** Calls `meter` with each call as it is recorded (the metrics count tokens and cost). */
  onCallMetered(meter: (call: MeteredCall) => void): void {
    this.#meters.push(meter);
  }

  /** The base URL an agent server's OpenAI client is given: the proxy as its sandbox reaches it. */
  async baseUrlForSandbox(): Promise<string> {
    if (this.docker) {
      const docker = this.docker;
      this.#gateway ??= ensureSandboxNetwork(docker)
        .then(({ gateway }) => gateway)
        .catch((error: unknown) => {
          this.#gateway = undefined; // asked again at the next start
          throw error;
        });
      const gateway = await this.#gateway;
      return `http://${gateway}:${await this.#listenOn(gateway)}/v1`;
    }
    return `${this.urlFromSandbox(`http://${LOOPBACK}:${await this.#listenOn(LOOPBACK)}`)}/v1`;
  }

  /** The token an agent server is given for its conversation's LLM calls. */
  tokenFor(conversationId: string): string {
    return this.tokens.issue(conversationId);
  }

  async #listenOn(host: string): Promise<number> {
    if (!this.#listen) throw new Unavailable(msg`The LLM proxy is not listening`);
    let listener = this.#listeners.get(host);
    if (!listener) {
      listener = this.#listen(host);
      this.#listeners.set(host, listener);
      // A failed listen is tried again at the next start.
      listener.catch(() => this.#listeners.delete(host));
    }
    return (await listener).port;
  }

  /** One call of the conversation's, as the Usage page counts it: its tokens, and their cost at the model's price (the demo records its history's calls with it). */
  async record(conversation: { id: string; user_id: string }, model: string | null, status: number, usage: CallUsage | undefined) {
    const used = usage ?? { prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0 };
    const price = this.prices.priceOf(model);
    const cost = price ? callCost({ ...used, reasoning_tokens: 0 }, price) : null;
    for (const meter of this.#meters) meter({ model, status, usage: used, cost });
    try {
      await this.data.as(asSystem(TASK, conversation.user_id)).llmCalls.insert({
        user_id: conversation.user_id,
        conversation_id: conversation.id,
        model,
        status,
        ...used,
        cost,
        created_at: this.clock().toISOString(),
      });
    } catch (error) {
      this.log.warn({ err: error, conversationId: conversation.id }, 'an LLM call could not be recorded');
    }
  }

  /** Passes one Chat Completions request of the conversation `token` names on to its owner's LLM. */
  async chatCompletions(token: string | undefined, body: Buffer, signal: AbortSignal): Promise<ForwardedResponse> {
    const conversationId = this.tokens.conversationOf(token);
    const conversation = conversationId === undefined ? undefined : await this.data.as(asSystem(TASK)).conversations.get(conversationId);
    if (!conversation) throw new Unauthenticated(msg`Not a token of a conversation this server has`);
    const llm = await this.settings.readWithSecrets(asSystem(TASK, conversation.user_id));
    const url = `${llmEndpoint(llm?.llm_base_url)}/chat/completions`;
    const key = llm?.llm_api_key;
    try {
      // undici's request, not fetch: fetch refuses ports browsers block, where an LLM may listen.
      // Loaded at the first call, not at every server start.
      const { request } = await import('undici');
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body,
        signal,
      });
      const contentType = typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : null;
      const meter = new UsageMeter(contentType?.startsWith('text/event-stream') ?? false);
      // Recorded however the response ends: whole, cut short, or refused.
      finished(meter, () => void this.record(conversation, modelOf(body), response.statusCode, meter.usage));
      return { status: response.statusCode, contentType, body: pipeline(response.body, meter, () => undefined) };
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = rootCause(error);
      this.log.warn({ conversationId, url: shownUrl(url), reason }, 'the LLM could not be reached');
      throw new Unavailable(msg`The LLM at ${shownUrl(url)} could not be reached (${reason}). Check its base URL in Settings › LLM.`);
    }
  }
}
