import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type DemoProcess, startDemo } from '../scripts/demo-process';
import { screenshotFiles } from '../scripts/screenshot-pages';
import type { Usage } from '../src/contract/usage';
import { CHEAP_PASSWORD_HASHES } from './support/server';

// `npm run demo` as a person runs it: its own process on a temporary data dir, seeded, then
// Ctrl+C. One test: seeding takes half a minute, and every check reads the same demo.

const ROOT = path.resolve(import.meta.dirname, '..');
const DAY_MS = 86_400_000;
/** npm run screenshots' own limit: past what it takes on a busy machine, short of the test's. */
const SCREENSHOTS_TIMEOUT_MS = 150_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Items<T> {
  items: T[];
}
interface Sandbox {
  id: string;
  sandbox_spec_id: string;
  status: string;
  status_detail: string | null;
}
interface Member {
  user_id: string;
  email: string;
  role: string;
  status: string;
  last_sign_in_at: string | null;
}
interface Conversation {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  selected_repository: string | null;
  llm_model: string | null;
  execution_status: string | null;
}

/** Pids of processes that carry one of `sandboxIds` as their sandbox marker. */
function sandboxProcesses(sandboxIds: string[]): number[] {
  const markers = sandboxIds.map((id) => `AGENT_CONSOLE_SANDBOX_ID=${id}`);
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      return markers.some((marker) => environ.includes(marker)) ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile, or not ours to read
    }
  });
}

/**
 * `npm run screenshots` against the running demo, with a limit of its own: past it, it ends with
 * what it started (tsx's Node, its browser), and the test fails with what it printed (a line per
 * page), so a hang says where instead of waiting for the test's own limit.
 */
function runScreenshots(outDir: string, signInLink: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/screenshots.ts', outDir], {
      cwd: ROOT,
      env: { ...process.env, DEMO_SIGN_IN_LINK: signInLink },
      // A process group of its own, ended whole.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let ended = false;
    const timer = setTimeout(() => {
      ended = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, SCREENSHOTS_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`npm run screenshots failed${ended ? ` (ended after ${SCREENSHOTS_TIMEOUT_MS / 1000} s)` : ''}:\n${output}`));
    });
  });
}

async function checkApi(demo: DemoProcess): Promise<Sandbox[]> {
  const settings = await demo.get<{
    llm_model: string;
    confirmation_mode: boolean;
    mcp_config: { sse_servers: unknown[]; stdio_servers: unknown[]; shttp_servers: unknown[] };
    provider_tokens_set: Record<string, string | null>;
  }>('/api/settings');
  expect(settings.llm_model).toBe('demo/scripted');
  expect(settings.confirmation_mode).toBe(true);
  expect(settings.mcp_config.sse_servers.length).toBeGreaterThan(0);
  expect(settings.mcp_config.stdio_servers.length).toBeGreaterThan(0);
  expect(settings.mcp_config.shttp_servers.length).toBeGreaterThan(0);
  expect(settings.provider_tokens_set).toEqual({ github: null, gitlab: 'gitlab.acme.example' });
  expect((await demo.get<{ custom_secrets: unknown[] }>('/api/secrets')).custom_secrets.length).toBeGreaterThanOrEqual(3);
  expect((await demo.get<Items<unknown>>('/api/v1/sandbox-specs/search')).items.length).toBeGreaterThanOrEqual(4);

  const sandboxes = (await demo.get<Items<Sandbox>>('/api/v1/sandboxes/search?limit=100')).items;
  expect(new Set(sandboxes.map((sandbox) => sandbox.status))).toEqual(new Set(['RUNNING', 'PAUSED', 'STARTING', 'ERROR', 'MISSING']));
  expect(sandboxes.find((sandbox) => sandbox.status === 'ERROR')?.status_detail).toContain('No space left on device');

  // The Usage page's last 30 days: the conversations' LLM calls, by model and by user; the time
  // sandboxes ran ends with their work, not today (not all of them running all the time).
  const usage = await demo.get<Usage>('/api/usage');
  expect(usage.totals.calls).toBeGreaterThan(100);
  expect(usage.totals.cost).toBeGreaterThan(1);
  expect(usage.models.length).toBeGreaterThanOrEqual(2);
  expect(usage.users.filter((user) => user.cost > 0).length).toBeGreaterThanOrEqual(3);
  expect(usage.totals.sandbox_seconds).toBeLessThan((usage.days.length * 1.5 * DAY_MS) / 1000);

  const active = await demo.get<number>('/api/v1/app-conversations/count');
  const archived = await demo.get<number>('/api/v1/app-conversations/count?archived=true');
  expect(active + archived).toBe(201); // 200 of the last 90 days, and the one on the demo model
  expect(archived).toBeGreaterThan(0);
  const [oldest] = (await demo.get<Items<Conversation>>('/api/v1/app-conversations/search?sort_order=CREATED_AT&limit=1')).items;
  const age = Date.now() - Date.parse(oldest!.created_at);
  expect(age).toBeGreaterThan(75 * DAY_MS);
  expect(age).toBeLessThan(92 * DAY_MS);
  const newest = (await demo.get<Items<Conversation>>('/api/v1/app-conversations/search?limit=100')).items;
  expect(new Set(newest.map((conversation) => conversation.selected_repository)).size).toBeGreaterThanOrEqual(5);
  // Worked on over weeks, as real use would be, not all in the minute the demo seeded them.
  expect(new Set(newest.map((conversation) => conversation.updated_at.slice(0, 10))).size).toBeGreaterThanOrEqual(10);
  expect(await demo.get<number>('/api/v1/events/count?kind__eq=ActionEvent')).toBeGreaterThan(100);
  // Every conversation opens with its history: each has its user's message (the one on the demo model too).
  expect(await demo.get<number>('/api/v1/events/count?kind__eq=MessageEvent')).toBeGreaterThanOrEqual(2 * 201);
  // Each opens with its system prompt, as a live one does, though its history is dated days back.
  for (const { id } of [oldest!, ...newest.slice(0, 5)]) {
    const [first] = (await demo.get<Items<{ kind: string }>>(`/api/v1/events/search?conversation_id__eq=${id}&limit=1`)).items;
    expect(first?.kind, `the first event of ${id}`).toBe('SystemPromptEvent');
  }
  // Each kind of history is there: a summarised one, one continued in a new sandbox, an MCP call, edits with their diffs.
  expect(await demo.get<number>('/api/v1/events/count?kind__eq=Condensation')).toBeGreaterThanOrEqual(1);
  expect(await demo.get<number>('/api/v1/events/count?kind__eq=ContinuedInNewSandboxEvent')).toBe(1);
  const observations = (
    await demo.get<Items<{ observation: { kind: string; old_content?: string; new_content?: string } }>>(
      '/api/v1/events/search?kind__eq=ObservationEvent&limit=100',
    )
  ).items;
  expect(observations.some((event) => event.observation.kind === 'MCPToolObservation')).toBe(true);
  const edits = observations.filter((event) => event.observation.new_content);
  expect(edits.length).toBeGreaterThan(0);
  expect(edits.every((event) => event.observation.new_content !== event.observation.old_content)).toBe(true);

  const [midRun] = (await demo.get<Items<Conversation>>('/api/v1/app-conversations/search?title__contains=tour%20of%20the%20storefront'))
    .items;
  expect(midRun).toMatchObject({ llm_model: 'demo/scripted', execution_status: 'waiting_for_confirmation' });
  // Asked for a tour, it gave one: what is where in the storefront, and how to run it.
  const finishes = (
    await demo.get<Items<{ action: { message?: string } }>>(
      `/api/v1/events/search?conversation_id__eq=${midRun!.id}&kind__eq=ActionEvent&limit=100`,
    )
  ).items.flatMap((event) => event.action.message ?? []);
  expect(finishes.join('\n')).toMatch(/What is where:\n- `[^`]+`: [\s\S]*To run it: /);

  // The team: the owner, two admins, six members (one disabled) and a pending invitation; members' own work.
  const team = (await demo.get<Items<Member>>('/api/organizations/default/members?limit=100')).items;
  const count = (check: (member: Member) => boolean) => team.filter(check).length;
  expect([count((m) => m.role === 'owner'), count((m) => m.role === 'admin'), count((m) => m.role === 'member')]).toEqual([1, 2, 7]);
  expect([count((m) => m.status === 'disabled'), count((m) => m.status === 'invited')]).toEqual([1, 1]);
  // Everyone who joined has signed in, the owner too, on days spread as their work is.
  const lastSignIns = team.filter((m) => m.status !== 'invited').map((m) => m.last_sign_in_at);
  expect(lastSignIns).not.toContain(null);
  expect(new Set(lastSignIns.map((at) => at!.slice(0, 10))).size).toBeGreaterThanOrEqual(3);
  const mei = team.find((member) => member.email === 'mei@acme.example')!;
  const meis = await demo.get<number>(`/api/v1/app-conversations/count?created_by_user_id__eq=${mei.user_id}`);
  expect(meis).toBeGreaterThan(0);
  expect(meis).toBeLessThan(active);
  const origin = demo.url.replace('//127.0.0.1:', '//localhost:');
  const signedIn = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'mei@acme.example', password: 'demo password' }),
  });
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const asMei = await fetch(`${origin}/api/v1/app-conversations/count`, { headers: { cookie } });
  expect(await asMei.json()).toBe(meis);
  const meisSettings = (await (await fetch(`${origin}/api/settings`, { headers: { cookie } })).json()) as { inherited: string[] };
  expect(meisSettings.inherited).toContain('llm_model');
  // Her work of today, its sandbox running: the changes its timeline tells are in its workspace.
  const asMeiGet = async <T>(path: string) => (await (await fetch(`${origin}${path}`, { headers: { cookie } })).json()) as T;
  const today = (await asMeiGet<Items<Conversation>>('/api/v1/app-conversations/search?limit=100')).items.filter(
    (conversation) => conversation.selected_repository && Date.now() - Date.parse(conversation.created_at) < DAY_MS,
  );
  const changed = await Promise.all(
    today.map(async (conversation) => (await asMeiGet<unknown[]>(`/api/v1/app-conversations/${conversation.id}/workspace/changes`)).length),
  );
  expect(changed.filter((count) => count > 0).length, `changes per conversation of today: ${changed.join(', ')}`).toBeGreaterThan(0);
  return sandboxes;
}

async function checkPages(page: Page, demo: DemoProcess): Promise<void> {
  await page.goto(demo.signInLink);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByLabel('LLM model')).toHaveValue('demo/scripted');

  await page.goto(`${demo.url}/settings/mcp`);
  await expect(page.getByRole('cell', { name: 'postgres-readonly', exact: true })).toBeVisible();
  await page.goto(`${demo.url}/git`);
  await expect(page.getByTestId('gitlab-host')).toHaveText('gitlab.acme.example');
  await page.goto(`${demo.url}/git?tab=secrets`);
  await expect(page.getByRole('cell', { name: 'STAGING_DB_URL', exact: true })).toBeVisible();

  await page.goto(`${demo.url}/conversations`);
  await expect(page.getByText('3 of 5 sandboxes running')).toBeVisible();
  const tour = page.getByRole('link', { name: 'Give me a tour of the storefront repository' });
  await expect(page.getByRole('link', { name: 'Triage the overnight Sentry alerts' }).first()).toBeVisible();
  await tour.click();
  await expect(page.getByText('I am the demo model')).toBeVisible();
  // What waits is the risky step: the delete, rated HIGH by the model.
  const waiting = page.getByRole('region', { name: 'Waiting for approval' });
  await expect(waiting).toContainText('rm demo-notes.md');
  await expect(waiting).toContainText('High risk');
  await expect(waiting.getByRole('button', { name: 'Approve' })).toBeVisible();

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${demo.url}/sandboxes`);
  await expect(page.getByText('No space left on device')).toBeVisible();
  // At 1,400 px, with an owner, conversations and failed sandboxes on it, the table fits its page,
  // every row's last action in the window, and a spec's name and an age each read on one line.
  const table = page.getByRole('table', { name: 'Sandboxes' });
  expect(await table.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
  for (const more of await table.getByRole('button', { name: /^More actions for / }).all()) {
    // Visible first: the rows' figures refresh as sandboxes run, and a box is read between renders.
    await expect(more).toBeVisible();
    const box = (await more.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1400);
  }
  // The line boxes its text takes (a block's own rects are one, however many lines it wraps to).
  const linesOf = (element: Element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return range.getClientRects().length;
  };
  expect(await table.getByText('node-22-frontend', { exact: true }).first().evaluate(linesOf)).toBe(1);
  expect(new Set(await table.locator('time').evaluateAll((times) => times.map((time) => time.getClientRects().length)))).toEqual(
    new Set([1]),
  );
  await page.setViewportSize({ width: 1280, height: 720 });
  const statuses = {
    'node-22-frontend': 'Running',
    'python-3.12-data': 'Paused',
    'gpu-training': 'Starting',
    'postgres-15': 'Error',
    'nightly-e2e': 'Missing',
  };
  for (const [spec, status] of Object.entries(statuses)) {
    await expect(page.getByRole('row', { name: `${spec} ${status}` })).toBeVisible();
  }
  await page.goto(`${demo.url}/sandbox-specs`);
  await expect(page.getByRole('cell', { name: 'gpu-training', exact: true })).toBeVisible();
  await page.goto(`${demo.url}/users`);
  await expect(page.getByRole('row', { name: /Dora Quinn \(left\)/ })).toContainText('disabled');
  await expect(page.getByRole('row', { name: /new\.hire@acme\.example/ })).toContainText('invited');
}

test('npm run demo: every page shows the seeded team, npm run screenshots shoots each, Ctrl+C removes its sandboxes and data dir', async ({
  page,
}) => {
  test.setTimeout(480_000);
  const demo = await startDemo(CHEAP_PASSWORD_HASHES);
  let sandboxes: Sandbox[] = [];
  try {
    await test.step('the API the pages read has the seeded data', async () => {
      sandboxes = await checkApi(demo);
    });
    await test.step('the pages show it', () => checkPages(page, demo));
    await test.step('npm run screenshots writes each page in both schemes', async () => {
      const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-screenshots-'));
      try {
        await runScreenshots(outDir, demo.signInLink);
        expect(fs.readdirSync(outDir).sort()).toEqual(screenshotFiles().sort());
        for (const file of fs.readdirSync(outDir)) {
          expect(fs.readFileSync(path.join(outDir, file)).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        }
      } finally {
        fs.rmSync(outDir, { recursive: true, force: true });
      }
    });
  } finally {
    await test.step('Ctrl+C deletes its sandboxes and its data dir', async () => {
      expect(await demo.stop('SIGINT')).toBe(0);
    });
  }
  expect(demo.dataDir).toMatch(/agent-console-demo-/);
  expect(fs.existsSync(demo.dataDir)).toBe(false);
  expect(sandboxProcesses(sandboxes.map((sandbox) => sandbox.id))).toEqual([]);
});
