import { msg } from '@lingui/core/macro';
import fs from 'node:fs';
import * as z from 'zod/mini';
import { type LlmPrice, llmPriceSchema } from './agent-server/contract';
import { DEMO_MODEL } from '../src/contract/events';
import { rule } from '../src/contract/rules';
import { toValidationDetail } from './http/validation-detail';
import { readableMessage } from '../src/contract/validation-detail';
import { ConfigError } from './config';

const price = (input: number, output: number, cache_read: number | null): LlmPrice => ({ input, output, cache_read });

/*
 * Public list prices as of 2025, in dollars per million tokens (standard tier; for models that
 * charge more for long prompts, the price of prompts up to 200K tokens). Providers change them:
 * LLM_PRICES_FILE overrides or adds entries, e.g. `{"gpt-4o": {"input": 2.5, "output": 10, "cache_read": 1.25}}`.
 */
const SHIPPED: Record<string, LlmPrice> = {
  'gpt-4o': price(2.5, 10, 1.25),
  'gpt-4o-mini': price(0.15, 0.6, 0.075),
  'gpt-4.1': price(2, 8, 0.5),
  'gpt-4.1-mini': price(0.4, 1.6, 0.1),
  'gpt-4.1-nano': price(0.1, 0.4, 0.025),
  o3: price(2, 8, 0.5),
  'o3-mini': price(1.1, 4.4, 0.55),
  'o4-mini': price(1.1, 4.4, 0.275),
  'gpt-5': price(1.25, 10, 0.125),
  'gpt-5-mini': price(0.25, 2, 0.025),
  'gpt-5-nano': price(0.05, 0.4, 0.005),

  'claude-sonnet-4-5': price(3, 15, 0.3),
  'claude-sonnet-4-5-20250929': price(3, 15, 0.3),
  'claude-sonnet-4-0': price(3, 15, 0.3),
  'claude-sonnet-4-20250514': price(3, 15, 0.3),
  'claude-3-7-sonnet-20250219': price(3, 15, 0.3),
  'claude-opus-4-1': price(15, 75, 1.5),
  'claude-opus-4-1-20250805': price(15, 75, 1.5),
  'claude-opus-4-0': price(15, 75, 1.5),
  'claude-opus-4-20250514': price(15, 75, 1.5),
  'claude-haiku-4-5': price(1, 5, 0.1),
  'claude-haiku-4-5-20251001': price(1, 5, 0.1),
  'claude-3-5-haiku-latest': price(0.8, 4, 0.08),
  'claude-3-5-haiku-20241022': price(0.8, 4, 0.08),

  'gemini-2.5-pro': price(1.25, 10, 0.125),
  'gemini-2.5-flash': price(0.3, 2.5, 0.03),

  'deepseek-chat': price(0.28, 0.42, 0.028),
  'deepseek-reasoner': price(0.28, 0.42, 0.028),

  'mistral-large-latest': price(2, 6, null),
  'mistral-large-2411': price(2, 6, null),
};

const FREE = price(0, 0, 0);

/** The LiteLLM provider prefix of a shipped model name, so a suggestion can be used as it is. */
function withProvider(model: string): string {
  if (/^(gpt-|o\d)/.test(model)) return `openai/${model}`;
  if (model.startsWith('claude-')) return `anthropic/${model}`;
  if (model.startsWith('gemini-')) return `gemini/${model}`;
  if (model.startsWith('deepseek-')) return `deepseek/${model}`;
  if (model.startsWith('mistral-')) return `mistral/${model}`;
  return model;
}

/** What each model costs; the agent reports the cost of a model without a price as unknown. */
export class LlmPrices {
  readonly #byModel: ReadonlyMap<string, LlmPrice>;
  readonly #overridden: readonly string[];

  /** The shipped prices, with `overrides` replacing or adding entries. Names match case-insensitively. */
  constructor(overrides: Record<string, LlmPrice> = {}) {
    const entries = [...Object.entries(SHIPPED), ...Object.entries(overrides)];
    this.#byModel = new Map(entries.map(([model, p]) => [model.toLowerCase(), p]));
    this.#overridden = Object.keys(overrides);
  }

  /** Every model with a price, as Settings offers them (shipped ones with their provider), and the demo model. */
  modelNames(): string[] {
    return [...new Set([...Object.keys(SHIPPED).map(withProvider), ...this.#overridden, DEMO_MODEL])];
  }

  /**
   * The price of `model`: its exact name, else the name without its routing prefixes
   * (`litellm_proxy/anthropic/claude-…` → `anthropic/claude-…` → `claude-…`); `null` when unknown.
   */
  priceOf(model: string | null): LlmPrice | null {
    if (model === DEMO_MODEL) return FREE;
    if (!model) return null;
    const segments = model.trim().toLowerCase().split('/');
    for (let start = 0; start < segments.length; start++) {
      const found = this.#byModel.get(segments.slice(start).join('/'));
      if (found) return found;
    }
    return null;
  }
}

const modelName = z.string().check(rule((name: string) => (name.trim() ? undefined : msg`A model name must not be empty`)));
const pricesFileSchema = z.record(modelName, llmPriceSchema);

/** The shipped prices, overridden by LLM_PRICES_FILE (`{"<model>": {input, output, cache_read?}}`) when set. */
export function loadLlmPrices(pricesFile: string | undefined): LlmPrices {
  if (!pricesFile) return new LlmPrices();
  let declared: unknown;
  try {
    declared = JSON.parse(fs.readFileSync(pricesFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `LLM_PRICES_FILE ${pricesFile} cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const result = pricesFileSchema.safeParse(declared, { reportInput: true });
  if (!result.success) {
    const problems = toValidationDetail(result.error.issues).map((d) =>
      d.loc.length > 0 ? `${d.loc.join('.')}: ${readableMessage(d)}` : readableMessage(d),
    );
    throw new ConfigError(
      `LLM_PRICES_FILE ${pricesFile} must map model names to {"input", "output", "cache_read"?} in dollars per million tokens: ${problems.join('; ')}`,
    );
  }
  return new LlmPrices(result.data);
}
