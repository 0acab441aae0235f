import type { Page } from '@playwright/test';
import { SESSION_COOKIE } from '../server/http/session-cookie';
import { expect, test as onLoopbackAddress } from './support/fixtures';
import { startIdentityProvider } from '../test-support/oidc/identity-provider';
import { startServer } from './support/server';
import { closedPort } from '../server/testing/closed-port';
import { addTeamMember, asMember, onLocalhost } from './support/team';

/*
 * A team on one server: the owner invites someone, who sets a password and sees only their own
 * things; an admin acts on a member's sandbox; an API key works for a script until it is deleted.
 * On `localhost`: the server sets no session cookie on 127.0.0.1, where sandboxes are published.
 */
const test = onLoopbackAddress.extend({ baseURL: async ({ server }, use) => use(onLocalhost(server.url)) });

const row = (page: Page, id: string) => page.locator(`[data-sandbox-id="${id}"]`);

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/settings');
  // The form remembers the way this browser signed in last.
  const instead = page.getByRole('button', { name: 'Use an email and password instead' });
  const emailField = page.getByLabel('Email', { exact: true });
  await expect(instead.or(emailField)).toBeVisible();
  if (await instead.isVisible()) await instead.click();
  await emailField.fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
}

test('an invited member sets a password, signs in, sees only their own sandboxes, and signs out', async ({
  page,
  browser,
  server,
  api,
}) => {
  test.slow(); // two browsers, and passwords hashed at their real cost six times
  const owners = (await api('/api/v1/sandboxes', { method: 'POST' })).json() as { id: string };

  // The owner invites from the Users page and hands over the link.
  await page.goto(onLocalhost(server.signInLink));
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Invite people' }).first().click();
  const invite = page.getByRole('dialog', { name: 'Invite people' });
  await invite.getByLabel('Email addresses').fill('mia@example.com');
  await invite.getByRole('button', { name: 'Invite' }).click();
  const link = (await invite.getByText(/\/join#token=/).textContent())!;
  expect(new URL(link).origin).toBe(onLocalhost(server.url));
  await invite.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /mia@example\.com/ })).toContainText('invited');

  // Mia, in a browser of her own, follows the link.
  const context = await browser.newContext();
  const mia = await context.newPage();
  await mia.goto(link);
  // The page says which address she joins as.
  await expect(mia.getByLabel('Email')).toHaveValue('mia@example.com');
  await mia.getByLabel('Your name').fill('Mia');
  await mia.getByLabel('Password', { exact: true }).fill('short');
  await mia.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(mia.getByText('Use at least 10 characters').first()).toBeVisible();
  await mia.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await mia.getByLabel('Password again').fill('correct horse battery');
  await mia.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(mia.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  // A member: no Users page.
  await expect(mia.getByRole('link', { name: 'Sandboxes' })).toBeVisible();
  await expect(mia.getByRole('link', { name: 'Users' })).toHaveCount(0);
  // Typed in, an admin page says it is not for her role, and shows nothing of its own.
  for (const [path, title] of [
    ['/users', 'Users'],
    ['/settings/team', 'Team defaults'],
  ]) {
    await mia.goto(onLocalhost(`${server.url}${path}`));
    await expect(mia.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(mia.getByText("This page is for the team's owner and admins: it is not for your role.")).toBeVisible();
    await expect(mia.getByRole('alert')).toHaveCount(0);
  }

  // The owner's sandbox is not hers to see; the one she starts is.
  await mia.getByRole('link', { name: 'Sandboxes' }).click();
  await expect(mia.getByText('No sandboxes yet')).toBeVisible();
  const hers = (await mia.evaluate(async () => (await (await fetch('/api/v1/sandboxes', { method: 'POST' })).json()) as { id: string })).id;
  await mia.reload();
  await expect(row(mia, hers)).toBeVisible();
  await expect(row(mia, owners.id)).toHaveCount(0);
  // Her capacity is her own: the owner's running sandbox is not counted.
  await expect(mia.getByTestId('sandbox-capacity')).toHaveText(/^You may run \d+ sandboxes at once: 1 running · you have 1 of \d+$/);
  expect(await mia.evaluate(async (id) => (await fetch(`/api/v1/sandboxes/${id}/pause`, { method: 'POST' })).status, owners.id)).toBe(404);

  // The owner sees both, and Mia as active.
  await page.getByRole('link', { name: 'Sandboxes' }).click();
  await expect(row(page, hers)).toBeVisible();
  await expect(row(page, owners.id)).toBeVisible();

  // Signing out ends her session: the cookie no longer lets anything in.
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!;
  await mia.getByRole('button', { name: 'Sign out' }).click();
  await expect(mia.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
  const replayed = await fetch(`${onLocalhost(server.url)}/api/settings`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
  expect(replayed.status).toBe(401);

  // She signs in again with her email and password; a wrong password is refused as an unknown email is.
  await mia.getByRole('button', { name: 'Use an email and password instead' }).click();
  await mia.getByLabel('Email', { exact: true }).fill('mia@example.com');
  await mia.getByLabel('Password', { exact: true }).fill('not her password');
  await mia.getByRole('button', { name: 'Sign in' }).click();
  await expect(mia.getByText('Email or password not accepted')).toBeVisible();
  await signInWithPassword(mia, 'mia@example.com', 'correct horse battery');

  // She changes her password (Settings › API keys): this browser stays signed in, the new one works.
  await mia.getByRole('link', { name: 'API keys' }).click();
  const change = mia.getByRole('form', { name: 'Change password' });
  await change.getByLabel('Current password').fill('not her password');
  await change.getByLabel('New password', { exact: true }).fill('a new horse battery');
  await change.getByLabel('New password again').fill('a new horse battery');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByLabel('Current password')).toHaveAccessibleDescription(/not your current password/);
  await change.getByLabel('Current password').fill('correct horse battery');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(mia.getByText('Password changed')).toBeVisible();
  await mia.reload();
  await expect(mia.getByRole('form', { name: 'Change password' })).toBeVisible();
  await mia.getByRole('button', { name: 'Sign out' }).click();
  // Settings has an Email field too: the sign-out is waited for before the sign-in page is read.
  await expect(mia.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
  await signInWithPassword(mia, 'mia@example.com', 'a new horse battery');
  await context.close();
});

test("an admin sees whose each sandbox is, filters by owner, and pauses a member's sandbox", async ({ page, server, api }) => {
  const owners = (await api('/api/v1/sandboxes', { method: 'POST' })).json() as { id: string };
  const admin = await addTeamMember(server, 'ada@example.com', 'admin');
  const member = await addTeamMember(server, 'bo@example.com', 'member');
  const started = await fetch(`${server.url}/api/v1/sandboxes`, { method: 'POST', headers: { 'X-Session-API-Key': member.key } });
  const { id } = (await started.json()) as { id: string };

  await signInWithPassword(page, admin.email, admin.password);
  await expect(page.getByRole('link', { name: 'Users' })).toBeVisible();
  await page.getByRole('link', { name: 'Sandboxes' }).click();
  await expect(row(page, id)).toContainText('bo@example.com');
  await expect(row(page, owners.id)).toBeVisible();
  await page.getByLabel('Owner').selectOption({ label: 'bo@example.com' });
  await expect(page).toHaveURL(new RegExp(`owner=${member.userId}`));
  await expect(row(page, owners.id)).toHaveCount(0);
  await expect(row(page, id).locator('[data-status]')).toHaveText('Running');
  await page.getByRole('button', { name: `Pause ${id}` }).click();
  await expect(row(page, id).locator('[data-status]')).toHaveText('Paused');
  const seen = await asMember(server, member, `/api/v1/sandboxes?id=${id}`);
  expect(await seen.json()).toEqual([expect.objectContaining({ id, status: 'PAUSED', created_by_user_id: member.userId })]);
});

test("an admin follows a member's conversation but is offered nothing that acts in their name", async ({ page, server }) => {
  const admin = await addTeamMember(server, 'ada@example.com', 'admin');
  const member = await addTeamMember(server, 'bo@example.com', 'member');
  const asBo = (path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'X-Session-API-Key': member.key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(
      (response) =>
        response.json() as Promise<{ id: string; status: string; app_conversation_id: string; sandbox_id: string }[] & { id: string }>,
    );
  // Bo's conversation, and a start of his that fails (a repository, and no git provider connected).
  const started = await asBo('/api/v1/app-conversations', { title: 'Bo’s work' });
  await asBo('/api/v1/app-conversations', { title: 'Bo’s failed start', selected_repository: 'octo/hello' });
  const task = async () => (await asBo(`/api/v1/app-conversations/start-tasks?ids=${started.id}`))[0]!;
  await expect.poll(async () => (await task()).status, { timeout: 60_000 }).toBe('READY');
  const conversationId = (await task()).app_conversation_id;

  await signInWithPassword(page, admin.email, admin.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  // Retry would run his task as the admin, with the admin's model and secrets: only Dismiss, and whose it is.
  const failed = page.getByRole('group', { name: 'Start of Bo’s failed start' });
  await expect(failed).toContainText('bo@example.com’s');
  await expect(failed.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  await expect(failed.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  // His running sandbox is not offered for a conversation of the admin's: it holds his secrets.
  const bos = (await task()).sandbox_id;
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  const sandboxChoice = page.getByRole('dialog', { name: 'New conversation' }).getByLabel('Sandbox');
  await expect(sandboxChoice.locator('option')).not.toHaveCount(0);
  await expect(sandboxChoice.locator('option', { hasText: bos.slice(0, 8) })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.goto(`/conversations/${conversationId}`);
  await expect(page.getByRole('heading', { name: 'Bo’s work', level: 1 })).toBeVisible();
  await expect(page.getByText(/Only bo@example\.com can write to its agent/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('bo@example.com');
  await page.getByRole('tab', { name: 'Files' }).click();
  await expect(page.getByText(/Only bo@example\.com can read this conversation's workspace/)).toBeVisible();
});

test('an API key made on its page works for a script until it is deleted', async ({ page, server }) => {
  await page.goto(onLocalhost(server.signInLink));
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await page.getByRole('button', { name: 'Create an API key' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByLabel('Name').fill('nightly report');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await shown.getByText(/^sk-oh-/).textContent())!;
  // The headers to send it in, as code.
  await expect(shown.locator('code')).toHaveText(['X-Session-API-Key', 'Authorization: Bearer']);
  await expect(shown).not.toContainText('`');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /nightly report/ })).toContainText(key.slice(0, 10));

  const script = () => fetch(`${server.url}/api/v1/sandboxes/search`, { headers: { authorization: `Bearer ${key}` } });
  expect((await script()).status).toBe(200);
  await page.reload();
  await expect(page.getByRole('row', { name: /nightly report/ })).not.toContainText('Never');

  await page.getByRole('button', { name: 'Delete nightly report' }).click();
  await page
    .getByRole('dialog', { name: /Delete nightly report/ })
    .getByRole('button', { name: 'Delete key' })
    .click();
  await expect(page.getByRole('row', { name: /nightly report/ })).toHaveCount(0);
  expect((await script()).status).toBe(401);
});

test("the team's defaults reach a member's settings, marked as the team's, until they set their own", async ({ page, browser, server }) => {
  const member = await addTeamMember(server, 'dee@example.com', 'member');
  await page.goto(onLocalhost(server.signInLink));
  await page.getByRole('link', { name: 'Team defaults' }).click();
  // Its own form: until its code has come, the Settings form (with fields of the same names) still shows.
  const defaults = page.getByRole('form', { name: 'Team defaults' });
  await defaults.getByLabel('LLM model').fill('openai/team-model');
  await defaults.getByLabel('LLM API key').fill('sk-team-key');
  const shared = defaults.getByLabel(/Shared MCP servers/);
  await shared.fill('{"sse_servers": [{"url": "not a url"}], "stdio_servers": [], "shttp_servers": []}');
  await defaults.getByRole('button', { name: 'Save team defaults' }).click();
  // The server's refusal, at the field: what was typed stays.
  await expect(shared).toHaveAttribute('aria-invalid', 'true');
  await expect(shared).toHaveAccessibleDescription(/sse_servers.*url|URL/);
  await expect(defaults.getByLabel('LLM model')).toHaveValue('openai/team-model');
  await shared.fill('{"sse_servers": [{"url": "https://mcp.team.example/sse"}], "stdio_servers": [], "shttp_servers": []}');
  await defaults.getByRole('button', { name: 'Save team defaults' }).click();
  await expect(page.getByText('Team defaults saved')).toBeVisible();
  await expect(defaults.getByLabel('Shared MCP servers (1)')).toBeVisible();

  const context = await browser.newContext({ baseURL: onLocalhost(server.url) });
  const dee = await context.newPage();
  await signInWithPassword(dee, member.email, member.password);
  await expect(dee.getByRole('link', { name: 'Team defaults' })).toHaveCount(0);
  const model = dee.getByLabel('LLM model');
  await expect(model).toHaveValue('openai/team-model');
  await expect(model).toHaveAccessibleDescription(/Your team’s default/);
  await model.fill('openai/my-own');
  await dee.getByRole('button', { name: 'Save changes' }).click();
  await expect(model).not.toHaveAccessibleDescription(/Your team’s default/);
  await dee.reload();
  await expect(dee.getByLabel('LLM model')).toHaveValue('openai/my-own');

  // The team's MCP server is on her MCP page, as the team's: hers to read, not to change.
  await dee.getByRole('link', { name: 'MCP servers' }).click();
  await expect(dee.getByText('None of your own yet')).toBeVisible();
  const teams = dee.getByRole('table', { name: 'Your team’s MCP servers' });
  await expect(teams.getByRole('row', { name: /https:\/\/mcp\.team\.example\/sse/ })).toBeVisible();
  await expect(teams.getByRole('button')).toHaveCount(0);
  await context.close();
});

onLoopbackAddress(
  'someone signs in with the identity provider and becomes a member; the sign-in page says why when the provider refuses',
  async ({ page }) => {
    // The provider's port first: the server is told its issuer when it starts, the provider the server's address then.
    const port = await closedPort();
    const server = await startServer({
      OIDC_ISSUER: `http://localhost:${port}`,
      OIDC_CLIENT_ID: 'agent-console',
      OIDC_CLIENT_SECRET: 'agent-console-test-secret',
      OIDC_ALLOW_SIGNUPS: '1',
    });
    const origin = onLocalhost(server.url);
    const provider = await startIdentityProvider(
      `${origin}/sign-in/oidc/callback`,
      { olive: { email: 'olive@example.com', name: 'Olive' }, unverified: { email: 'u@example.com', verified: false } },
      port,
    );
    try {
      const viaProvider = async (login: string) => {
        await page.goto(`${origin}/settings`);
        await page.getByRole('link', { name: 'Use your identity provider' }).click();
        await page.locator('input[name="login"]').fill(login);
        await page.locator('input[name="password"]').fill('anything');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
      };
      await viaProvider('unverified');
      await expect(page.getByRole('alert')).toContainText('has not verified this email address');

      // Signed out at the provider too, so it asks who is signing in.
      await page.context().clearCookies();
      await viaProvider('olive');
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      await expect(page).toHaveURL(`${origin}/settings`);
      await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
      const me = await page.evaluate(
        async () => (await (await fetch('/api/organizations/default/me')).json()) as { email: string; role: string },
      );
      expect(me).toMatchObject({ email: 'olive@example.com', role: 'member' });
    } finally {
      await provider.close();
      await server.stop();
    }
  },
);
