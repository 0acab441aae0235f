import { agentMetricsOf } from '../../src/contract/conversations';
import type { ApiServices } from '../services/create-services';
import type { DemoClock } from './demo-clock';

/** What a history's metrics (its last frame, see transcripts.ts) say the agent used. */
interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  /** The tokens of one call: the history's calls are its total over this. */
  per_turn_token: number;
}

const MINUTE_MS = 60_000;

/**
 * The LLM calls a seeded conversation's history adds up to, recorded as the LLM proxy records
 * each (its tokens, their cost at the model's price), a minute apart from `at`: the Usage page
 * shows what the conversations say they used.
 */
export async function recordLlmCalls(
  services: ApiServices,
  clock: DemoClock,
  conversation: { id: string; user_id: string },
  model: string,
  history: object[],
  at: Date,
): Promise<void> {
  const metrics = agentMetricsOf((history.at(-1) as { value?: unknown } | undefined)?.value) as
    { accumulated_token_usage?: TokenUsage } | undefined;
  const used = metrics?.accumulated_token_usage;
  if (!used?.per_turn_token) return;
  const calls = Math.max(1, Math.round((used.prompt_tokens + used.completion_tokens) / used.per_turn_token));
  // Whole tokens each, adding up to the history's totals.
  const share = (total: number, call: number) => Math.floor((total * (call + 1)) / calls) - Math.floor((total * call) / calls);
  for (let call = 0; call < calls; call++) {
    await clock.at(new Date(at.getTime() + call * MINUTE_MS), () =>
      services.llmProxy.record(conversation, model, 200, {
        prompt_tokens: share(used.prompt_tokens, call),
        completion_tokens: share(used.completion_tokens, call),
        cache_read_tokens: share(used.cache_read_tokens, call),
      }),
    );
  }
}
