import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_MODEL } from '../src/contract/events';
import { ConfigError } from './config';
import { LlmPrices, loadLlmPrices } from './llm-prices';

function pricesFile(content: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'prices.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('LlmPrices.priceOf', () => {
  const prices = new LlmPrices();

  it('knows common models by their exact name', () => {
    expect(prices.priceOf('gpt-4o')).toEqual({ input: 2.5, output: 10, cache_read: 1.25 });
    expect(prices.priceOf('claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15, cache_read: 0.3 });
    expect(prices.priceOf('mistral-large-latest')).toEqual({ input: 2, output: 6, cache_read: null });
  });

  it.each([
    ['openai/gpt-4.1-mini', 'gpt-4.1-mini'],
    ['anthropic/claude-haiku-4-5', 'claude-haiku-4-5'],
    ['litellm_proxy/anthropic/claude-sonnet-4-20250514', 'claude-sonnet-4-20250514'],
    ['gemini/gemini-2.5-pro', 'gemini-2.5-pro'],
    ['openrouter/deepseek/deepseek-chat', 'deepseek-chat'],
    ['OpenAI/GPT-5', 'gpt-5'],
  ])('finds %s under %s, its name without routing prefixes', (model, bare) => {
    expect(prices.priceOf(model)).not.toBeNull();
    expect(prices.priceOf(model)).toEqual(prices.priceOf(bare));
  });

  it('prices the demo model at nothing', () => {
    expect(prices.priceOf(DEMO_MODEL)).toEqual({ input: 0, output: 0, cache_read: 0 });
  });

  it.each([['my-local-llama'], ['openai/gpt-4o-2024-05-13'], ['ollama/llama3'], [''], [null]])('does not know %s', (model) => {
    expect(prices.priceOf(model)).toBeNull();
  });
});

describe('loadLlmPrices', () => {
  it('has the shipped prices without a file', () => {
    expect(loadLlmPrices(undefined).priceOf('o3')).toEqual({ input: 2, output: 8, cache_read: 0.5 });
  });

  it('lets the file replace shipped prices and add models, also behind prefixes', () => {
    const prices = loadLlmPrices(
      pricesFile({
        'GPT-4o': { input: 1, output: 4, cache_read: 0.5 },
        'azure/my-deployment': { input: 1.5, output: 6 },
      }),
    );
    expect(prices.priceOf('gpt-4o')).toEqual({ input: 1, output: 4, cache_read: 0.5 });
    expect(prices.priceOf('litellm_proxy/azure/my-deployment')).toEqual({ input: 1.5, output: 6, cache_read: null });
    expect(prices.priceOf('gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6, cache_read: 0.075 });
  });

  it('refuses a file that is missing', () => {
    const missing = path.join(os.tmpdir(), 'no-such-dir-for-prices', 'prices.json');
    expect(() => loadLlmPrices(missing)).toThrow(ConfigError);
    expect(() => loadLlmPrices(missing)).toThrow(`LLM_PRICES_FILE ${missing} cannot be read as JSON`);
  });

  it.each([
    ['not JSON', '{', /cannot be read as JSON/],
    ['a list', [{ input: 1, output: 2 }], /must map model names to/],
    ['a price without output', { 'my-model': { input: 1 } }, /my-model\.output: Field required/],
    ['a negative price', { 'my-model': { input: -1, output: 2 } }, /my-model\.input: /],
    ['a price as text', { 'my-model': { input: '1', output: 2 } }, /my-model\.input: Input should be a valid number/],
  ])('refuses %s with a clear message', (_name, content, message) => {
    const file = pricesFile(content);
    expect(() => loadLlmPrices(file)).toThrow(ConfigError);
    expect(() => loadLlmPrices(file)).toThrow(message);
  });
});
