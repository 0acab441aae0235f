import type { LlmPrice } from './contract';
import type { Metrics } from '../../src/contract/conversations';
import type { Usage } from './model';

/** Metrics before the first LLM call. `price` `null`: the cost is unknown, so a budget cannot apply. */
export function initialMetrics(model: string | null, price: LlmPrice | null, budget: number | null): Metrics {
  return {
    model_name: model ?? 'default',
    accumulated_cost: 0,
    max_budget_per_task: budget,
    accumulated_token_usage: {
      model: model ?? '',
      prompt_tokens: 0,
      completion_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: 0,
      response_id: '',
    },
    cost_known: price !== null,
  };
}

/** Dollars for one call: `price` is dollars per million tokens; cached prompt tokens at the cache price when known. */
export function callCost(usage: Usage, price: LlmPrice): number {
  const cached = Math.min(usage.cache_read_tokens, usage.prompt_tokens);
  const cacheRate = price.cache_read ?? price.input;
  return ((usage.prompt_tokens - cached) * price.input + cached * cacheRate + usage.completion_tokens * price.output) / 1_000_000;
}

/** `metrics` after one more call. */
export function addUsage(metrics: Metrics, usage: Usage, responseId: string, price: LlmPrice | null): Metrics {
  const total = metrics.accumulated_token_usage ?? initialMetrics(metrics.model_name, price, null).accumulated_token_usage!;
  return {
    ...metrics,
    accumulated_cost: price ? metrics.accumulated_cost + callCost(usage, price) : metrics.accumulated_cost,
    accumulated_token_usage: {
      ...total,
      prompt_tokens: total.prompt_tokens + usage.prompt_tokens,
      completion_tokens: total.completion_tokens + usage.completion_tokens,
      cache_read_tokens: total.cache_read_tokens + usage.cache_read_tokens,
      reasoning_tokens: total.reasoning_tokens + usage.reasoning_tokens,
      per_turn_token: usage.prompt_tokens + usage.completion_tokens,
      response_id: responseId,
    },
    cost_known: price !== null,
  };
}

/** Whether the cost has passed the budget (never when the cost is unknown). */
export const overBudget = (metrics: Metrics): boolean =>
  metrics.cost_known && metrics.max_budget_per_task !== null && metrics.accumulated_cost > metrics.max_budget_per_task;
