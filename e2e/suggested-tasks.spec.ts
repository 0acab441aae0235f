import { type FakeProviderApi, startFakeProviderApi } from '../test-support/git/fake-provider-api';
import { type OpenAiStub, startOpenAiStub } from '../server/testing/openai-stub';
import { expect, test } from './support/fixtures';

/*
 * Settings › Proactive conversation starters and Solvability analysis, against the fake GitHub
 * (its GraphQL and REST APIs, and clones of ada/engine) and the stub LLM.
 */

const TOKEN = 'ghp_e2e_suggestions';

let provider: FakeProviderApi;
let llm: OpenAiStub;
test.beforeEach(async ({ api }) => {
  provider = await startFakeProviderApi(TOKEN, {
    repos: {
      'ada/engine': { files: { 'README.md': '# engine\n' }, branches: { 'feature/fast-engine': { 'FAST.md': 'faster\n' } } },
    },
  });
  llm = await startOpenAiStub();
  await api('/api/add-git-providers', { method: 'POST', body: { provider_tokens: { github: { token: TOKEN, host: provider.url } } } });
  await api('/api/settings', {
    method: 'POST',
    body: { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-e2e-stub-key', confirmation_mode: false },
  });
});
test.afterEach(async () => {
  await provider.close();
  await llm.close();
});

/** The conversation the list's page opened, as the API has it, and the names in its workspace. */
async function opened(api: Parameters<Parameters<typeof test>[2]>[0]['api'], url: string) {
  const id = /\/conversations\/([0-9a-f]{32})$/.exec(url)![1]!;
  const conversation = (await api(`/api/v1/app-conversations?ids=${id}`)).json() as {
    selected_repository: string;
    selected_branch: string;
  }[];
  const files = (await api(`/api/v1/app-conversations/${id}/workspace/files?path=`)).json() as { entries: { name: string }[] };
  return { ...conversation[0]!, files: files.entries.map((entry) => entry.name) };
}

test("suggested tasks from the user's GitHub show on Conversations; one click starts one with its prompt on its pull request's branch", async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  const suggestions = page.getByRole('region', { name: 'Suggested tasks' });
  await expect(suggestions.getByRole('heading', { name: 'ada/engine', level: 3 })).toBeVisible();
  await expect(suggestions.getByRole('button', { name: /^Resolve merge conflicts: Bearings in brass/ })).toBeVisible();
  await expect(suggestions.getByRole('button', { name: /^Resolve review comments: Translate the memoir/ })).toBeVisible();
  // The approved pull request that needs nothing is not suggested.
  await expect(suggestions).not.toContainText('Tidy the README');

  const task = suggestions.getByRole('button', { name: /^Fix failing checks: Faster engine/ });
  await expect(task).toContainText('#12 · on feature/fast-engine');
  // By keyboard, as a click would.
  await task.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Fix failing checks: Faster engine', level: 1 })).toBeVisible({ timeout: 60_000 });
  const log = page.getByRole('log', { name: 'Conversation events' });
  await expect(log.getByRole('group', { name: 'Your message' }).first()).toContainText(
    'You are working on Pull Request #12 in repository ada/engine. You need to fix the failing CI checks.',
  );
  // The agent asks the LLM after the message is shown: its request may be on its way still.
  await expect
    .poll(() => JSON.stringify(llm.requests[0]?.messages ?? null))
    .toContain('Use the GitHub API with the GITHUB_TOKEN environment variable');
  // On the pull request's branch: its file is in the workspace.
  expect(await opened(api, page.url())).toMatchObject({
    selected_repository: 'ada/engine',
    selected_branch: 'feature/fast-engine',
    files: expect.arrayContaining(['FAST.md', 'README.md']),
  });

  // Switched off in Settings, the Conversations page suggests nothing.
  await api('/api/settings', {
    method: 'POST',
    body: { enable_proactive_conversation_starters: false, enable_solvability_analysis: false },
  });
  await page.goto('/conversations');
  await expect(page.getByRole('table', { name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Suggested tasks' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Start from an issue' })).toHaveCount(0);
});

test("an issue's solvability, as the user's LLM estimates it, shows before its conversation starts on the default branch", async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  llm.enqueue({
    toolCalls: [
      {
        name: 'solvability_estimate',
        arguments: {
          score: 0.45,
          summary: 'The jam is described with a card to reproduce it, but not why thicker cards matter.',
          actionable_feedback: ['Say which card stock jams'],
          positive_feedback: ['Steps to reproduce', 'Expected and actual behaviour'],
        },
      },
    ],
  });
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  await page
    .getByRole('region', { name: 'Suggested tasks' })
    .getByRole('button', { name: /^Fix issue: Punch cards jam in the reader/ })
    .click();

  const dialog = page.getByRole('dialog', { name: 'Start from an issue' });
  const estimate = dialog.getByRole('region', { name: 'Solvability estimate' });
  await expect(estimate).toContainText('May be solvable');
  await expect(estimate).toContainText('Solvability MEDIUM · 45%');
  await expect(estimate).toContainText('not why thicker cards matter');
  await expect(estimate).toContainText('Say which card stock jams');
  await expect(estimate).toContainText('Estimated by stub-model');
  await expect(dialog).toContainText('ada/engine · starts on main');
  // The model read the issue from the provider: its text and its comment.
  const read = JSON.stringify(llm.requests[0]?.messages);
  expect(read).toContain('Cards with more than 40 holes jam.');
  expect(read).toContain('charles: Seen it too');

  await dialog.getByRole('button', { name: 'Start conversation' }).click();
  await expect(page.getByRole('heading', { name: 'Fix issue: Punch cards jam in the reader', level: 1 })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('log', { name: 'Conversation events' }).getByRole('group', { name: 'Your message' }).first()).toContainText(
    'You are working on Issue #4 in repository ada/engine. Your goal is to fix the issue.',
  );
  const conversation = await opened(api, page.url());
  expect(conversation).toMatchObject({
    selected_repository: 'ada/engine',
    selected_branch: 'main',
    files: expect.arrayContaining(['README.md']),
  });
  expect(conversation.files).not.toContain('FAST.md');

  // An address pasted: a pull request's is not an issue's, and the server says so.
  await page.goto('/conversations');
  const field = page.getByRole('textbox', { name: /Start from an issue/ });
  await field.fill(`${provider.url}/ada/engine/pull/12`);
  await field.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Start from an issue' }).getByRole('alert')).toContainText(
    'Expected the address of an issue on GitHub',
  );
});
