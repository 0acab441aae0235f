import type { Page } from '@playwright/test';
import { type OpenAiStub, startOpenAiStub } from '../server/testing/openai-stub';
import { startTavilyStandIn, type TavilyStandIn } from '../server/testing/tavily-stand-in';
import { action, startConversation } from './support/conversations';
import { expect, test as base } from './support/fixtures';

/*
 * Web search with a search API key in Settings: the key tested against Tavily (a stand-in, which
 * the server reaches through TAVILY_API_URL), and the agent given the search tool, whose searches
 * reach Tavily through the server.
 */

const KEY = 'tvly-e2e-web-search-8c02f4';

const test = base.extend<{ tavily: TavilyStandIn }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here
  tavily: async ({}, use) => {
    const tavily = await startTavilyStandIn(KEY);
    await use(tavily);
    await tavily.close();
  },
  serverEnv: async ({ tavily }, use) => use({ TAVILY_API_URL: tavily.url }),
});

let llm: OpenAiStub;
test.beforeEach(async () => {
  llm = await startOpenAiStub();
});
test.afterEach(async () => {
  await llm.close();
});

const field = (page: Page, label: string) => page.locator('input').and(page.getByLabel(label, { exact: true }));

test('a saved search key passes its test, a wrong one is refused in words, and the agent gets web search through the server', async ({
  page,
  signIn,
  api,
  server,
  tavily,
}) => {
  test.setTimeout(120_000);
  await api('/api/settings', {
    method: 'POST',
    body: { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-e2e-stub-key' },
  });
  await signIn(page);
  await field(page, 'Search API key').fill(KEY);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(page.getByTestId('search_api_key-status')).toHaveText('Set');

  const search = page.getByRole('region', { name: 'Search' });
  await search.getByRole('button', { name: 'Test key' }).click();
  await expect(search.getByRole('status')).toContainText('Tavily accepted the key');
  // The field was empty: the stored key went to Tavily, from the server.
  expect(tavily.requests.map(({ method, path, authorization }) => `${method} ${path} ${authorization}`)).toEqual([
    `GET /usage Bearer ${KEY}`,
  ]);

  await field(page, 'Search API key').fill('tvly-e2e-wrong-key');
  await search.getByRole('button', { name: 'Test key' }).click();
  await expect(search.getByRole('alert')).toContainText(
    'Tavily refused the search API key (HTTP 401: Unauthorized: missing or invalid API key.)',
  );
  await page.getByRole('button', { name: 'Discard' }).click();

  llm.enqueue({ toolCalls: [{ name: 'web_search', arguments: { query: 'Agent Console' } }] }, { text: 'The web says hello.' });
  await startConversation(page, 'Search the web for us', { useDemo: false });

  const call = action(page, 'tavily › web_search {"query":"Agent Console"}');
  await expect(call).toContainText('Done', { timeout: 30_000 });
  await call.getByRole('button', { name: 'Output' }).click();
  await expect(call).toContainText('Title: Agent Console: an overview');
  await expect(page.getByText('The web says hello.')).toBeVisible({ timeout: 30_000 });
  expect(llm.requests[0]?.tools?.map((tool) => tool.function.name)).toContain('web_search');
  expect(JSON.stringify(llm.requests[1]?.messages)).toContain('URL: https://docs.example.com/agent-console');
  expect(tavily.searches()).toEqual([{ query: 'Agent Console' }]);
  expect(tavily.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  expect(server.output()).not.toContain(KEY);
});
