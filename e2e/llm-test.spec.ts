import type { Page } from '@playwright/test';
import { type OpenAiStub, startOpenAiStub } from '../server/testing/openai-stub';
import { expect, test } from './support/fixtures';

const KEY = 'sk-e2e-llm-test-3c9a71';

let llm: OpenAiStub;
test.beforeEach(async () => {
  llm = await startOpenAiStub();
});
test.afterEach(async () => {
  await llm.close();
});

const field = (page: Page, label: string) => page.locator('input').and(page.getByLabel(label, { exact: true }));

test('Test LLM shows the reply with the stored key, and a rejected key in words', async ({ page, signIn, server }) => {
  await signIn(page);
  await field(page, 'LLM model').fill('openai/gpt-e2e');
  await field(page, 'LLM base URL').fill(llm.baseUrl);
  await field(page, 'LLM API key').fill(KEY);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(field(page, 'LLM API key')).toHaveValue('');

  const llmSection = page.getByRole('region', { name: 'LLM' });
  llm.enqueue({ text: 'Ready for your first task.' });
  await llmSection.getByRole('button', { name: 'Test LLM' }).click();
  await expect(llmSection.getByRole('status')).toContainText('gpt-e2e responded');
  await expect(llmSection.getByRole('status')).toContainText('Ready for your first task.');
  // The key field was empty: the stored key went to the model.
  expect(llm.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);

  llm.enqueue({ status: 401 });
  await llmSection.getByRole('button', { name: 'Test LLM' }).click();
  await expect(llmSection.getByRole('alert')).toContainText('The provider rejected the API key (HTTP 401');
  expect(server.output()).not.toContain(KEY);
});
