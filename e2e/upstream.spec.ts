import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { addCommand, addCommandOutput, addConversation, addMessage, addSandbox, OTHER_SPEC_ID } from '../test-support/fake-openhands/state';
import { type FakeOpenHands, startFakeOpenHands } from '../test-support/fake-openhands/fake-openhands';
import { storeSettings } from '../test-support/fake-openhands/settings';
import { featuresFromDocument } from '../src/api/server-features';
import { expect, test as base } from './support/fixtures';
import { startServer } from './support/server';

/*
 * Upstream mode: our server started with UPSTREAM_URL serves the console and forwards the API to
 * a fake OpenHands that behaves as the pinned one does (test-support/fake-openhands). The console
 * must cope with each of its quirks, and our server must store nothing.
 */

const KEY = 'openhands-session-key-e2e';

const test = base.extend<{ openhands: FakeOpenHands }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here
  openhands: async ({}, use) => {
    const openhands = await startFakeOpenHands({ sessionKey: KEY });
    await use(openhands);
    await openhands.close();
  },
  server: async ({ openhands }, use) => {
    const server = await startServer({ UPSTREAM_URL: openhands.url, SESSION_API_KEY: KEY });
    await use(server);
    // Nothing was written where the data dir would be.
    expect(fs.readdirSync(server.dataDir)).toEqual([]);
    await server.stop();
  },
});

const field = (page: Page, label: string) => page.locator('input, select, textarea').and(page.getByLabel(label, { exact: true }));
const row = (page: Page, id: string) => page.locator(`[data-sandbox-id="${id}"]`);

test('the header names the OpenHands behind the server; settings start from defaults, and a save keeps what it read; the sandbox key is said to be unstorable', async ({
  page,
  signIn,
  openhands,
  server,
}) => {
  await signIn(page);
  await expect(page.getByTestId('server-badge')).toHaveText(`OpenHands at ${new URL(openhands.url).host}`);
  // OpenHands' 404 before anything is stored (it ignores absent=null): the defaults.
  await expect(page.getByText('Nothing stored yet')).toBeVisible();
  // This OpenHands has no organisations or API keys: their pages are not offered.
  await expect(page.getByRole('link', { name: 'MCP servers' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'API keys' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Team defaults' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
  // The key went through the forwarding to OpenHands, which checks it.
  expect(openhands.requests).toContain('GET /api/settings?absent=null');
  const unkeyed = await fetch(`${server.url}/api/settings`);
  expect(unkeyed.status).toBe(401);
  expect(await unkeyed.json()).toEqual({ detail: 'Unauthorized' });

  // Stored as a POST to OpenHands would store them (defaults for the rest).
  storeSettings(openhands.state, {
    agent: 'CodeActAgent',
    confirmation_mode: true,
    llm_model: 'openai/gpt-5',
    llm_api_key: 'sk-stored-llm',
    sandbox_api_key: 'sbx-stored',
    git_user_name: 'Ada',
    mcp_config: {
      sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'mcp-plain-key' }],
      stdio_servers: [],
      shttp_servers: [],
    },
  });
  await page.reload();
  await expect(field(page, 'Git user name')).toHaveValue('Ada');
  await field(page, 'Git user name').fill('Ada Lovelace');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(page.getByText('Sandbox API key: this server (OpenHands) cannot store it.')).toBeVisible();
  await expect(page.getByText(/Enter again/)).toHaveCount(0);

  // OpenHands replaced its settings with the body: everything read went back, so nothing else changed.
  expect(openhands.state.settings).toMatchObject({
    git_user_name: 'Ada Lovelace',
    agent: 'CodeActAgent',
    confirmation_mode: true,
    llm_model: 'openai/gpt-5',
    llm_api_key: 'sk-stored-llm',
    sandbox_api_key: null,
    mcp_config: { sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'mcp-plain-key' }] },
  });

  // The MCP key OpenHands sends in clear reads as set and is never shown; there is no Test.
  await page.goto('/settings/mcp');
  const servers = page.getByRole('table');
  await expect(servers.getByRole('row', { name: /mcp\.example\.com/ })).toContainText('Set');
  await expect(page.getByText('mcp-plain-key')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Test/ })).toHaveCount(0);

  // A secret's new value reaches OpenHands, whose PUT would ignore it: replaced, not updated.
  openhands.state.secrets.push({ name: 'API_TOKEN', value: 'old-value', description: 'Staging API' });
  await page.goto('/git?tab=secrets');
  await page.getByRole('button', { name: 'Edit API_TOKEN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit API_TOKEN' });
  await expect(dialog.getByText('This server cannot change values in place')).toBeVisible();
  await field(dialog.page(), 'New value').fill('new-value');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect(openhands.state.secrets).toEqual([{ name: 'API_TOKEN', value: 'new-value', description: 'Staging API' }]);
});

test('sandboxes: filters OpenHands ignores apply on the page, and say so; no logs; delete goes through', async ({
  page,
  signIn,
  openhands,
}) => {
  const running = addSandbox(openhands.state);
  const paused = addSandbox(openhands.state, { status: 'PAUSED' });
  const other = addSandbox(openhands.state, { specId: OTHER_SPEC_ID });
  await signIn(page);
  await page.goto('/sandboxes');
  for (const sandbox of [running, paused, other]) await expect(row(page, sandbox.id)).toBeVisible();

  await page.getByLabel('Status').selectOption('PAUSED');
  await expect(row(page, paused.id)).toBeVisible();
  await expect(row(page, running.id)).toHaveCount(0);
  await expect(row(page, other.id)).toHaveCount(0);
  await expect(page.getByText('This server ignores sandbox filters')).toBeVisible();
  // The filter went to OpenHands (which ignored it): the console filtered, the page it had already
  // loaded too, so the request may still be on its way.
  await expect.poll(() => openhands.requests.some((request) => request.includes('status__eq=PAUSED'))).toBe(true);

  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Spec').selectOption(OTHER_SPEC_ID);
  await expect(row(page, other.id)).toBeVisible();
  await expect(row(page, running.id)).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(row(page, running.id)).toBeVisible();

  await page.getByRole('button', { name: `More actions for ${running.id}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Logs' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete sandbox?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, running.id)).toHaveCount(0);
  expect(openhands.state.sandboxes.map((sandbox) => sandbox.id)).not.toContain(running.id);

  // Capacity is a route of ours (a 405 on OpenHands): never asked, on this page or Conversations.
  await page.getByRole('link', { name: 'Conversations' }).first().click();
  await expect(page.getByRole('heading', { name: 'Conversations', level: 1 })).toBeVisible();
  expect(openhands.requests.filter((request) => request.includes('/sandboxes/capacity'))).toEqual([]);
});

test('conversations: events come from polling the search, rename and delete use the legacy routes, archiving is hidden', async ({
  page,
  signIn,
  openhands,
}) => {
  const conversation = addConversation(openhands.state, 'Fix the parser', ['Please fix the parser', 'Looking at it now']);
  addConversation(openhands.state, 'Another one');
  await signIn(page);
  await page.goto('/conversations');
  const table = page.getByRole('table', { name: 'Conversations' });
  await expect(table.getByRole('link', { name: 'Fix the parser' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Archived' })).toHaveCount(0);
  await expect(page.getByLabel('Sort')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Select Fix the parser' }).click();
  const toolbar = page.getByRole('toolbar', { name: 'Selected conversations' });
  await expect(toolbar.getByRole('button', { name: 'Delete (1)' })).toBeVisible();
  await expect(toolbar.getByRole('button', { name: /Archive/ })).toHaveCount(0);

  await table.getByRole('link', { name: 'Fix the parser' }).click();
  await expect(page.getByRole('heading', { name: 'Fix the parser', level: 1 })).toBeVisible();
  await expect(page.getByText('Please fix the parser')).toBeVisible();
  await expect(page.getByText('Looking at it now')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0);
  // No composer for routes OpenHands does not have: a note says where to write to the agent.
  await expect(page.getByText('This server has no routes to write to the agent from here')).toBeVisible();
  // A new event arrives with the next look.
  addMessage(openhands.state, conversation.id, 'agent', 'The parser is fixed');
  await expect(page.getByText('The parser is fixed')).toBeVisible();
  expect(openhands.requests.some((request) => request.includes('/events/stream'))).toBe(false);
  // A look first counts what is stored from the newest second on, and reads only when there is more.
  expect(openhands.requests.some((request) => request.includes('/api/v1/events/count'))).toBe(true);
  // A command, then its output 0.3 s later in the same second, after a look saw the command: the
  // next look asks from that whole second (OpenHands compares seconds), so the output comes.
  const command = addCommand(openhands.state, conversation.id, 'pytest -q');
  const commandRow = page.getByRole('group', { name: 'Action: pytest -q' });
  await expect(commandRow).toContainText('Not run yet');
  addCommandOutput(openhands.state, conversation.id, command, '3 passed');
  await expect(commandRow).toHaveAttribute('data-action-status', 'done');

  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill('Parser fixed');
  await page.getByRole('textbox', { name: 'Title' }).press('Enter');
  await expect(page.getByRole('heading', { name: 'Parser fixed', level: 1 })).toBeVisible();
  // The heading may show the new title before the rename reached the server.
  await expect.poll(() => openhands.state.conversations.find((candidate) => candidate.id === conversation.id)?.title).toBe('Parser fixed');
  expect(openhands.requests).toContain(`PATCH /api/conversations/${conversation.id}`);

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete conversation?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/conversations$/);
  await expect(table.getByRole('link', { name: 'Another one' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Parser fixed' })).toHaveCount(0);
  expect(openhands.requests).toContain(`DELETE /api/conversations/${conversation.id}`);
});

base('against our own server the console hides nothing, and the header says which server it is', async ({ page, signIn, server }) => {
  const { kind, ...features } = featuresFromDocument(await (await fetch(`${server.url}/openapi.json`)).json());
  expect(kind).toBe('agent-console');
  // Sign-in with an identity provider is there only when OIDC_* set one up.
  const { identityProvider: _setUp, ...always } = features;
  expect(Object.entries(always).filter(([, offered]) => !offered)).toEqual([]);
  await signIn(page);
  await expect(page.getByTestId('server-badge')).toHaveText(`Agent Console server at ${new URL(server.url).host}`);
});
