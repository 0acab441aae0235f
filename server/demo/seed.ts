import { type Caller, sessionKeyCaller } from '../authz/caller';
import { type DemoPersonName, type DemoTeam, retireFromDemoTeam, seedTeam } from './team';
import type { SandboxStatus } from '../../src/contract/sandboxes';
import { DEMO_MODEL } from '../../src/contract/demo-model';
import { appSendMessageSchema, confirmationResponseSchema } from '../../src/contract/events';
import type { ApiServices } from '../services/create-services';
import { type PlannedConversation, planConversations } from './conversation-plan';
import type { DemoClock } from './demo-clock';
import { cloneFromDemoRepositories, createRepositories, pullRequestBranches } from './repositories';
import { SPEC } from './sandbox-specs';
import { inParallel, seedConversation, startConversation, until } from './seed-conversations';
import { seedMcpServers, seedSettings } from './settings-data';

/*
 * The demo's data, made the way people make it: settings, git providers and secrets; 200
 * conversations started over the last 90 days in the sandboxes they ran in (the old ones'
 * sandboxes deleted since, the last weeks' paused, today's running); sandboxes that wait, failed
 * and ended; and one conversation on the demo model that waits for its next step to be approved.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const FRONTEND = new Set(['acme/storefront', 'acme/mobile-app', 'acme/design-system']);

/** Conversations that shared a sandbox, and what became of it. */
interface SandboxGroup {
  spec: string | undefined;
  conversations: PlannedConversation[];
  end: 'deleted' | 'paused' | 'running';
}

/** Whose each group's sandbox and conversations are; the owner (who holds the session key) has today's. */
const GROUP_OWNERS: Record<string, DemoPersonName> = { 'today-frontend': 'mei', 'this-week': 'priya', 'last-week': 'sam' };
/** The older groups' owners, in turn. */
const HISTORY_OWNERS: DemoPersonName[] = ['jonas', 'lena', 'dora', 'sam', 'priya', 'mei', 'alan', 'ada'];

function ownerOf(key: string, team: DemoTeam, historyIndex: number): Caller {
  const name = GROUP_OWNERS[key] ?? (key.startsWith('history-') ? HISTORY_OWNERS[historyIndex % HISTORY_OWNERS.length] : undefined);
  return name ? team[name] : sessionKeyCaller;
}

/** Where the conversation on the demo model runs. */
const TODAY = 'today';

/** The plan's conversations by the sandbox they ran in, oldest first: what runs is started last. */
function sandboxGroups(plan: PlannedConversation[], now: Date): Map<string, SandboxGroup> {
  const groups = new Map<string, SandboxGroup>();
  const add = (key: string, group: Omit<SandboxGroup, 'conversations'>, conversation?: PlannedConversation) => {
    const existing = groups.get(key) ?? { ...group, conversations: [] };
    if (conversation) existing.conversations.push(conversation);
    groups.set(key, existing);
  };
  for (const conversation of plan) {
    const days = (now.getTime() - conversation.createdAt.getTime()) / DAY_MS;
    if (days >= 14) add(`history-${Math.floor((days - 14) / 15)}`, { spec: undefined, end: 'deleted' }, conversation);
    else if (days >= 7) add('last-week', { spec: SPEC.data, end: 'paused' }, conversation);
    else if (days >= 1) add('this-week', { spec: undefined, end: 'paused' }, conversation);
    else if (FRONTEND.has(conversation.repository?.name ?? ''))
      add('today-frontend', { spec: SPEC.frontend, end: 'running' }, conversation);
    else add(TODAY, { spec: undefined, end: 'running' }, conversation);
  }
  add(TODAY, { spec: undefined, end: 'running' });
  return groups;
}

async function statusOf(services: ApiServices, id: string): Promise<SandboxStatus> {
  return (await services.sandboxes.get(sessionKeyCaller, id)).status;
}

const reach = (services: ApiServices, id: string, status: SandboxStatus) =>
  until(`sandbox ${id} to be ${status}`, async () => ((await statusOf(services, id)) === status ? true : undefined));

/** Starts a sandbox of `caller`'s from `spec` as of `at`; returns its id. */
async function startSandbox(services: ApiServices, clock: DemoClock, caller: Caller, spec: string | undefined, at: Date): Promise<string> {
  const { sandbox } = await clock.at(at, () => services.sandboxes.start(caller, spec));
  return sandbox.id;
}

/**
 * Each member signed in shortly before their newest conversation (or two days ago, with none), the
 * owner three hours ago: the Users page's "Last sign-in" spread as real use spreads it.
 */
async function signInAsTheyWorked(services: ApiServices, clock: DemoClock, team: DemoTeam, lastWork: Map<string, Date>, now: Date) {
  for (const caller of Object.values(team)) {
    const worked = lastWork.get(caller.userId) ?? new Date(now.getTime() - 2 * DAY_MS);
    // Noted, not signed in with a password: a password's hash at its real cost, eight times, is seconds of the demo's start.
    await clock.at(new Date(worked.getTime() - 10 * 60_000), () => services.team.signedIn(caller));
  }
  await clock.at(new Date(now.getTime() - 3 * 60 * 60_000), () => services.team.signedIn(sessionKeyCaller));
}

export interface SeedOptions {
  /** Where the demo's git repositories go. */
  repositoriesDir: string;
  /** A process sandbox's home on this machine, where the repositories are copied for it. */
  sandboxHome: (id: string) => string;
  now: Date;
  /** Notified of how far it got. */
  progress: (message: string) => void;
  /** Stops the seeding between two steps. */
  signal: AbortSignal;
}

export async function seedDemo(
  services: ApiServices,
  clock: DemoClock,
  { repositoriesDir, sandboxHome, now, progress, signal }: SeedOptions,
) {
  await seedSettings(services);
  const team = await seedTeam(services);
  const plan = planConversations(now);
  createRepositories(repositoriesDir, pullRequestBranches(plan));
  let seeded = 0;
  const sandboxIds = new Map<string, string>();
  let histories = 0;
  /** When each user started their newest conversation. */
  const lastWork = new Map<string, Date>();
  const groups = [...sandboxGroups(plan, now)].map(([key, group]) => ({
    key,
    group,
    owner: ownerOf(key, team, key.startsWith('history-') ? histories++ : 0),
  }));
  /** A group's sandbox, running, with the demo's repositories to clone from. */
  const prepare = async ({ key, group, owner }: (typeof groups)[number]) => {
    const first = group.conversations[0]?.createdAt ?? new Date(now.getTime() - 2 * 60 * 60_000);
    const id = await startSandbox(services, clock, owner, group.spec, new Date(first.getTime() - 5 * 60_000));
    sandboxIds.set(key, id);
    await reach(services, id, 'RUNNING');
    await cloneFromDemoRepositories(services, owner, id, repositoriesDir, sandboxHome(id));
    return id;
  };
  // The next group's sandbox starts while this group's conversations are seeded.
  let next = groups[0] && prepare(groups[0]);
  for (const [index, { group, owner }] of groups.entries()) {
    signal.throwIfAborted();
    const id = await next!;
    next = groups[index + 1] && prepare(groups[index + 1]!);
    // Awaited below; a failure meanwhile is reported there, not as an unhandled rejection.
    next?.catch(() => undefined);
    await inParallel(group.conversations, 6, async (conversation) => {
      signal.throwIfAborted();
      await seedConversation(services, clock, owner, id, conversation, { keepsRunning: group.end === 'running' });
    });
    const last = group.conversations.at(-1);
    if (group.end !== 'running') {
      // Paused (and deleted) an hour after its last conversation, as of then: the Usage page's
      // sandbox hours are the time it ran, not the time since.
      const stopped = new Date((last?.createdAt ?? now).getTime() + HOUR_MS);
      await clock.at(stopped, () => services.sandboxes.pause(sessionKeyCaller, id));
      if (group.end === 'deleted') await clock.at(stopped, () => services.sandboxes.delete(sessionKeyCaller, id));
    }
    seeded += group.conversations.length;
    if (last) lastWork.set(owner.userId, last.createdAt);
    if (group.conversations.length > 0) progress(`${seeded} of ${plan.length} conversations`);
  }

  signal.throwIfAborted();
  // A database that cannot initialise, since yesterday; a nightly job that ended; a sandbox waiting for a GPU.
  // The members whose work is all history have a sandbox of their own, paused, to come back to.
  await Promise.all(
    (['jonas', 'lena'] as const).map(async (name) => {
      const started = new Date(now.getTime() - 3 * DAY_MS);
      lastWork.set(team[name].userId, started);
      const id = await startSandbox(services, clock, team[name], undefined, started);
      await reach(services, id, 'RUNNING');
      await clock.at(new Date(started.getTime() + 2 * HOUR_MS), () => services.sandboxes.pause(team[name], id));
    }),
  );
  // Before Dora leaves: a disabled member cannot sign in.
  await signInAsTheyWorked(services, clock, team, lastWork, now);
  await retireFromDemoTeam(services, team);
  const failed = await startSandbox(services, clock, sessionKeyCaller, SPEC.postgres, new Date(now.getTime() - DAY_MS));
  const ended = await startSandbox(services, clock, sessionKeyCaller, SPEC.nightly, new Date(now.getTime() - 6 * 60 * 60_000));
  await reach(services, failed, 'ERROR');
  await reach(services, ended, 'MISSING');

  const midRun = await startConversation(services, clock, sessionKeyCaller, new Date(), {
    sandbox_id: sandboxIds.get(TODAY)!,
    title: 'Give me a tour of the storefront repository',
    initial_message: { content: [{ type: 'text', text: 'Give me a quick tour of this repository: what is where, and how do I run it?' }] },
    selected_repository: 'acme/storefront',
    git_provider: 'github',
    llm_model: DEMO_MODEL,
  });
  // Approved as a person would, to its end; then asked to clean up: its delete, a command it rates
  // HIGH risk, waits for the visitor's approval.
  const status = async () => (await services.conversations.get(sessionKeyCaller, midRun)).execution_status;
  for (let step = await until('the demo model to ask for an approval', async () => (await status()) ?? undefined); step !== 'finished';) {
    if (step === 'waiting_for_confirmation')
      await services.agents.confirm(sessionKeyCaller, midRun, confirmationResponseSchema.parse({ accept: true }));
    step = await until('the demo model to go on', async () => {
      const now = await status();
      return now === 'waiting_for_confirmation' || now === 'finished' ? now : undefined;
    });
  }
  await services.agents.sendMessage(
    sessionKeyCaller,
    midRun,
    appSendMessageSchema.parse({ content: [{ type: 'text', text: 'Thanks! Now clean up: remove the note you wrote.' }] }),
  );
  await until('the demo model to ask to delete its note', async () => ((await status()) === 'waiting_for_confirmation' ? true : undefined));
  // Last: it stays STARTING for as long as a start may take.
  await startSandbox(services, clock, sessionKeyCaller, SPEC.gpu, new Date());
  await seedMcpServers(services);
  progress('sandboxes in every status, and a conversation on the demo model waiting to delete a file');
}
