import { type OpenAiStub, startOpenAiStub } from '../server/testing/openai-stub';
import { STDIO_MCP_SERVER } from '../server/testing/stdio-mcp-server';
import { action, startConversation } from './support/conversations';
import { expect, test } from './support/fixtures';

/*
 * The agent at work, on the built-in demo model (`demo/scripted`): a scripted session of a
 * message, a terminal action (`ls -la`) with its real output, a file edit and a finish, so no
 * LLM is needed.
 */

/** A settings save that points the agent at `llm` (the OpenAI-compatible stub), with `more` besides. */
const onStub = (llm: OpenAiStub, more: object = {}) => ({
  method: 'POST' as const,
  body: { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-e2e-stub-key', ...more },
});

test('the demo model: its scripted events arrive live, and it replies to a message', async ({ page, signIn }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await startConversation(page, 'Show me around the workspace', { useDemo: true });
  await expect(page.getByText('Demo model', { exact: true })).toBeVisible();

  const log = page.getByRole('log', { name: 'Conversation events' });
  await expect(log.getByRole('group', { name: 'Your message' })).toContainText('Show me around the workspace');
  await expect(log.getByRole('group', { name: "Agent's message" }).first()).toContainText(/demo/i, { timeout: 30_000 });

  // The terminal action ran in the sandbox: its real output is one click away.
  const ls = action(page, 'ls -la');
  await expect(ls).toContainText('Done · exit code 0', { timeout: 30_000 });
  await ls.getByRole('button', { name: 'Output' }).click();
  await expect(ls.locator('pre')).toContainText('total');

  await expect(action(page, /^Action: (Create|Edit|Insert into) /)).toContainText('Done', { timeout: 30_000 });
  await expect(log.getByRole('group', { name: "Agent's final message" })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-execution]')).toHaveAttribute('data-execution', 'finished');

  // A message: the composer empties once it is sent, and the reply follows it.
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  const unbroken = `https://example.com/${'a1b2c3d4'.repeat(15)}`;
  await composer.fill(`What did you change? ${unbroken}`);
  await composer.press('ControlOrMeta+Enter');
  await expect(composer).toHaveValue('');
  const mine = log.getByRole('group', { name: 'Your message' }).last();
  await expect(mine).toContainText('What did you change?');
  // The demo model quotes the message: its reply holds the long word too.
  const reply = log.getByRole('group', { name: "Agent's message" }).filter({ hasText: 'What did you change?' });
  await expect(reply).toContainText(unbroken, { timeout: 30_000 });
  // Long unbroken text wraps in its bubble: nothing of it sticks out.
  for (const bubble of [mine, reply]) {
    const fits = await bubble.evaluate((group) => {
      const paper = group.lastElementChild as HTMLElement;
      return paper.scrollWidth <= paper.clientWidth && paper.getBoundingClientRect().right <= group.getBoundingClientRect().right + 1;
    });
    expect(fits).toBe(true);
  }

  // Live means live: a reload shows the same history, from the stored events.
  await page.reload();
  await expect(log.getByRole('group', { name: 'Your message' }).last()).toContainText('What did you change?');
});

test('confirmation mode: an action waits for approval (a chime says so), Stop and Continue keep it waiting, Approve runs it', async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  await api('/api/settings', {
    method: 'POST',
    body: { llm_model: 'demo/scripted', confirmation_mode: true, enable_sound_notifications: true },
  });
  // Counts the notes of the chime that sound notifications play.
  await page.addInitScript(() => {
    const counted = window as unknown as { notes: number };
    counted.notes = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      counted.notes++;
      return create.call(this);
    };
  });
  await signIn(page);
  await startConversation(page, 'List the workspace files', { useDemo: false });

  const approval = page.getByRole('region', { name: 'Waiting for approval' });
  await expect(approval).toContainText('ls -la', { timeout: 30_000 });
  await expect(action(page, 'ls -la')).toContainText('Waiting for approval');
  const status = page.locator('[data-execution]');
  await expect(status).toHaveAttribute('data-execution', 'waiting_for_confirmation');
  // Whether it chimed already depends on whether the page opened before the agent began to wait.
  const notes = () => page.evaluate(() => (window as unknown as { notes: number }).notes);
  const before = await notes();

  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status).toHaveAttribute('data-execution', 'paused');
  // The PauseEvent on the timeline (the badge says "Paused" too). Pausing is no reason to chime.
  await expect(page.getByRole('log', { name: 'Conversation events' }).getByRole('note')).toHaveText('Paused');
  expect(await notes()).toBe(before);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(status).toHaveAttribute('data-execution', 'waiting_for_confirmation');
  // It started waiting for the user while the page was open, with sound notifications on: a chime.
  await expect.poll(notes).toBeGreaterThan(before);
  await expect(approval).toContainText('ls -la');

  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(action(page, 'ls -la')).toContainText('Done · exit code 0', { timeout: 30_000 });

  // The file edit waits too; the finish that follows has nothing to approve: the conversation is finished.
  await expect(approval).toContainText('demo-notes.md', { timeout: 30_000 });
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(status).toHaveAttribute('data-execution', 'finished', { timeout: 30_000 });
  await expect(approval).toHaveCount(0);
  await expect(page.getByText('Waiting for you')).toHaveCount(0);
});

test('with the LLM security analyzer, only a risky action waits for approval, rated on the timeline', async ({ page, signIn, api }) => {
  test.setTimeout(120_000);
  await api('/api/settings', { method: 'POST', body: { llm_model: 'demo/scripted', confirmation_mode: true, security_analyzer: 'llm' } });
  await signIn(page);
  await startConversation(page, 'Show me around, carefully', { useDemo: false });
  const status = page.locator('[data-execution]');

  // The demo rates its listing low and its note medium: neither asks (ConfirmRisky asks at HIGH).
  await expect(status).toHaveAttribute('data-execution', 'finished', { timeout: 30_000 });
  await expect(action(page, 'ls -la')).toContainText('Low risk');
  await expect(action(page, /^Action: Create /)).toContainText('Medium risk');

  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.fill('Please delete the notes');
  await composer.press('ControlOrMeta+Enter');
  const approval = page.getByRole('region', { name: 'Waiting for approval' });
  await expect(approval).toContainText('rm demo-notes.md', { timeout: 30_000 });
  await expect(approval).toContainText('High risk');
  await expect(status).toHaveAttribute('data-execution', 'waiting_for_confirmation');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(action(page, 'rm demo-notes.md')).toContainText('Done · exit code 0', { timeout: 30_000 });
  await expect(status).toHaveAttribute('data-execution', 'finished', { timeout: 30_000 });
});

test('a running command shows its output as it comes; Stop interrupts it: paused at once, the command says so, and Continue goes on', async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  const COMMAND = 'echo waiting for ten minutes; sleep 600';
  const llm = await startOpenAiStub([
    { toolCalls: [{ name: 'terminal', arguments: { command: COMMAND } }] },
    { text: 'Stopped as asked.' },
  ]);
  try {
    await api('/api/settings', onStub(llm, { confirmation_mode: false }));
    await signIn(page);
    await startConversation(page, 'Wait for ten minutes', { useDemo: false });
    const status = page.locator('[data-execution]');
    const command = action(page, COMMAND);
    await expect(command).toContainText('Running', { timeout: 30_000 });
    // Its output so far, long before it ends.
    await expect(command.getByRole('log', { name: 'Live output' })).toContainText('waiting for ten minutes');

    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(status).toHaveAttribute('data-execution', 'paused', { timeout: 10_000 });
    await expect(command).toContainText('Interrupted · exit code 130');
    // Its result holds the output now.
    await expect(command.getByRole('log', { name: 'Live output' })).toHaveCount(0);
    expect(llm.requests).toHaveLength(1);

    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Stopped as asked.')).toBeVisible({ timeout: 30_000 });
    await expect(status).toHaveAttribute('data-execution', 'finished');
    expect(JSON.stringify(llm.requests[1]?.messages)).toContain('the user pressed Stop');
  } finally {
    await llm.close();
  }
});

test("an MCP server from Settings is one of the agent's tools: its call and result on the timeline, with the server named", async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  const llm = await startOpenAiStub([
    { toolCalls: [{ name: 'echo', arguments: { text: 'from the agent' } }] },
    { text: 'The tool answered.' },
  ]);
  try {
    const stdio = {
      name: 'tools',
      ...STDIO_MCP_SERVER,
      env: {},
    };
    await api('/api/settings', onStub(llm, { mcp_config: { stdio_servers: [stdio], sse_servers: [], shttp_servers: [] } }));
    await signIn(page);
    await startConversation(page, 'Echo something', { useDemo: false });

    const call = action(page, 'tools › echo {"text":"from the agent"}');
    await expect(call).toContainText('Done', { timeout: 30_000 });
    await expect(call.getByLabel('MCP tool')).toBeVisible();
    await call.getByRole('button', { name: 'Output' }).click();
    await expect(call).toContainText('echo: from the agent');
    await expect(page.getByText('The tool answered.')).toBeVisible();
    await expect(page.getByText('Tools: terminal, file_editor, finish, echo (MCP server tools), clock (MCP server tools)')).toBeVisible();
  } finally {
    await llm.close();
  }
});

test('a long history is summarised for the model: the timeline says where, with the summary on demand', async ({ page, signIn, api }) => {
  test.setTimeout(120_000);
  const steps = Array.from({ length: 10 }, (_, i) => ({ toolCalls: [{ name: 'terminal', arguments: { command: `echo step ${i + 1}` } }] }));
  const llm = await startOpenAiStub([...steps, { text: 'USER_CONTEXT: ten echoes, nothing else' }, { text: 'All ten done.' }]);
  try {
    await api('/api/settings', onStub(llm, { enable_default_condenser: true, condenser_max_size: 20 }));
    await signIn(page);
    await startConversation(page, 'Echo ten times', { useDemo: false });
    await expect(page.getByText('All ten done.')).toBeVisible({ timeout: 60_000 });
    const summarised = page.getByRole('note', { name: 'Earlier history summarised' });
    await expect(summarised).toContainText(/Earlier history summarised for the model \(\d+ events\)/);
    await expect(page.getByText('USER_CONTEXT: ten echoes, nothing else')).toHaveCount(0);
    await summarised.getByRole('button', { name: 'Summary' }).click();
    await expect(summarised).toContainText('USER_CONTEXT: ten echoes, nothing else');
    // Every step stays on the timeline, summarised or not.
    await expect(action(page, 'echo step 3')).toContainText('Done · exit code 0');
  } finally {
    await llm.close();
  }
});

/** A 1×1 red PNG. */
const RED_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

test('an image attached to a message shows on the timeline and reaches the model as an image', async ({ page, signIn, api }) => {
  test.setTimeout(120_000);
  const llm = await startOpenAiStub([{ text: 'Ready when you are.' }, { text: 'A single red pixel.' }]);
  try {
    await api('/api/settings', onStub(llm, { confirmation_mode: false }));
    await signIn(page);
    await startConversation(page, 'Look at a picture with me', { useDemo: false });
    const log = page.getByRole('log', { name: 'Conversation events' });
    await expect(log.getByText('Ready when you are.')).toBeVisible({ timeout: 30_000 });

    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Attach images' }).click()]);
    await chooser.setFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: RED_PIXEL });
    await expect(page.getByRole('list', { name: 'Attached images' }).getByRole('img', { name: 'pixel.png' })).toBeVisible();
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('What is this?');
    await composer.press('ControlOrMeta+Enter');
    await expect(page.getByRole('list', { name: 'Attached images' })).toHaveCount(0);

    const sent = log.getByRole('group', { name: 'Your message' }).last();
    await expect(sent).toContainText('What is this?');
    await expect(sent.getByRole('img', { name: 'Image 1 of the message' })).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(log.getByText('A single red pixel.')).toBeVisible({ timeout: 30_000 });
    const asked = JSON.stringify(llm.requests[1]?.messages);
    expect(asked).toContain(`"image_url":{"url":"data:image/png;base64,${RED_PIXEL.toString('base64')}"}`);
  } finally {
    await llm.close();
  }
});

test("the agent answers in the user's language: once Settings › Language is saved as German, the model is told so", async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  const llm = await startOpenAiStub([{ text: 'Hallo! Womit kann ich helfen?' }]);
  try {
    await api('/api/settings', onStub(llm, { confirmation_mode: false }));
    await signIn(page);
    await page
      .locator('select')
      .and(page.getByLabel('Language', { exact: true }))
      .selectOption('de');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The console is in German from then on.
    await expect(page.getByRole('heading', { name: 'Einstellungen', level: 1 })).toBeVisible();

    await page.getByRole('link', { name: 'Unterhaltungen' }).click();
    await page.getByRole('button', { name: 'Neue Unterhaltung' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Neue Unterhaltung' });
    await dialog.getByLabel('Was soll der Agent tun?').fill('Sag hallo');
    await dialog.getByRole('button', { name: 'Starten', exact: true }).click();
    await expect(page.getByText('Hallo! Womit kann ich helfen?')).toBeVisible({ timeout: 30_000 });
    const [system] = llm.requests[0]?.messages ?? [];
    expect(system?.role).toBe('system');
    expect(JSON.stringify(system?.content)).toContain("The user's language is German (de): write your messages to the user");
  } finally {
    await llm.close();
  }
});
