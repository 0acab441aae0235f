import { Counter, type Registry } from 'prom-client';
import type { MeteredCall } from '../services/llm-proxy/llm-proxy-service';
import { boundedLabel } from './bounded-label';

/** Distinct model labels kept (the model is what the sandbox's call names). */
const MAX_MODELS = 50;

/** The LLM calls the proxy passed on for sandboxes: their number, the tokens their answers reported, and the cost. */
export class LlmMetrics {
  readonly #calls: Counter<'model' | 'status_code'>;
  readonly #tokens: Counter<'model' | 'type'>;
  readonly #cacheReadTokens: Counter<'model'>;
  readonly #cost: Counter<'model'>;
  readonly #model = boundedLabel(MAX_MODELS);

  constructor(registry: Registry) {
    const registers = [registry];
    this.#calls = new Counter({
      name: 'agent_console_llm_calls_total',
      help: `LLM calls the LLM proxy passed on for sandboxes' agents, by the model the call named ("other" past ${MAX_MODELS} models) and the status code of the LLM's answer.`,
      labelNames: ['model', 'status_code'],
      registers,
    });
    this.#tokens = new Counter({
      name: 'agent_console_llm_tokens_total',
      help: 'Tokens the LLM reported for the calls passed on, by model and type: prompt or completion.',
      labelNames: ['model', 'type'],
      registers,
    });
    this.#cacheReadTokens = new Counter({
      name: 'agent_console_llm_cache_read_tokens_total',
      help: "Of the prompt tokens, those the LLM reported read from its provider's cache, by model (they are counted in agent_console_llm_tokens_total too).",
      labelNames: ['model'],
      registers,
    });
    this.#cost = new Counter({
      name: 'agent_console_llm_cost_usd_total',
      help: "What the calls passed on cost in US dollars, at each model's price (the shipped prices or LLM_PRICES_FILE); calls of a model without a price add nothing.",
      labelNames: ['model'],
      registers,
    });
  }

  /** One call, as the proxy records it. */
  count({ model, status, usage, cost }: MeteredCall): void {
    const label = this.#model(model ?? 'unknown');
    this.#calls.inc({ model: label, status_code: String(status) });
    this.#tokens.inc({ model: label, type: 'prompt' }, usage.prompt_tokens);
    this.#tokens.inc({ model: label, type: 'completion' }, usage.completion_tokens);
    this.#cacheReadTokens.inc({ model: label }, usage.cache_read_tokens);
    if (cost !== null) this.#cost.inc({ model: label }, cost);
  }
}
