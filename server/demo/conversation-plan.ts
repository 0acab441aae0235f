import type { Provider } from '../../src/contract/secrets';
import type { TRIGGERS } from '../../src/contract/conversations';
import { REPOSITORIES } from './repositories';
import { TASKS, TICKETS } from './titles';

/*
 * The demo's 200 conversations over the last 90 days, on work days and hours: the team's tasks
 * at random times, the chores on their schedule. Random but the same on every run (a seeded
 * generator), relative to now.
 */

export interface PlannedConversation {
  title: string;
  repository: { name: string; provider: Provider } | null;
  branch: string | null;
  llmModel: string;
  trigger: (typeof TRIGGERS)[number] | null;
  prNumber: number[];
  createdAt: Date;
  /** Archived a few days after it was made. */
  archived: boolean;
  /** What its history tells (see transcripts.ts). */
  story: Story;
}

/**
 * `work`: looked, edited, checked, committed; `question`: stopped to ask; `llm-error`: the LLM
 * provider failed; `sentry`: read the alerts through an MCP server first; `long`: a long history
 * the condenser summarised; `continued`: went on in a new sandbox after its own was lost.
 */
export type Story = 'work' | 'question' | 'llm-error' | 'sentry' | 'long' | 'continued';

export const CONVERSATION_COUNT = 200;
const DAYS = 90;
const DAY_MS = 86_400_000;

/** mulberry32: small, fast, and the same sequence for the same seed. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

type Random = ReturnType<typeof generator>;

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .slice(0, 6)
    .join('-');

const repositoryNamed = (name: string) => {
  const found = REPOSITORIES.find((repository) => repository.name === name);
  return found ? { name: found.name, provider: found.provider } : null;
};

/** A moment on day `daysAgo` (0 is today) between 07:30 and 19:30 UTC, never later than a quarter of an hour ago. */
function onWorkDay(now: Date, daysAgo: number, random: Random): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let day = midnight - daysAgo * DAY_MS;
  const weekday = new Date(day).getUTCDay();
  if (daysAgo > 1 && (weekday === 0 || weekday === 6) && random.chance(0.85)) day -= (weekday === 0 ? 2 : 1) * DAY_MS;
  const at = day + (7.5 * 60 + random.int(12 * 60)) * 60_000 + random.int(60_000);
  const latest = now.getTime() - 15 * 60_000;
  return new Date(at <= latest ? at : latest - random.int(4 * 60) * 60_000);
}

function modelAt(daysAgo: number, random: Random): string {
  if (daysAgo > 45) return random.chance(0.8) ? 'anthropic/claude-sonnet-4-20250514' : 'openai/gpt-4.1';
  if (random.chance(0.15)) return 'openai/gpt-5';
  return random.chance(0.85) ? 'anthropic/claude-sonnet-4-5-20250929' : 'anthropic/claude-haiku-4-5';
}

interface Draft {
  title: string;
  repository: string | null;
  daysAgo: number;
  trigger?: PlannedConversation['trigger'];
  prNumber?: number[];
  branch?: string | null;
}

function drafts(random: Random): Draft[] {
  const list: Draft[] = [];
  for (const [repository, titles] of Object.entries(TASKS)) {
    for (const title of titles) list.push({ title, repository: repository || null, daysAgo: random.int(DAYS) });
  }
  const chores = ['acme/storefront', 'acme/payments-api', 'acme/mobile-app'];
  for (let week = 0; week < DAYS / 7; week++) {
    list.push({
      title: `Weekly dependency updates (${chores[week % chores.length]!.split('/')[1]})`,
      repository: chores[week % chores.length]!,
      daysAgo: week * 7 + 3,
      trigger: 'openhands_api',
      branch: `deps/week-${52 - week}`,
    });
    list.push({
      title: `Write release notes for v2.${40 - week}.0`,
      repository: 'acme/storefront',
      daysAgo: week * 7 + 1,
      branch: `release/v2.${40 - week}.0`,
    });
    for (const offset of [0, 4]) {
      list.push({
        title: 'Triage the overnight Sentry alerts',
        repository: random.chance(0.5) ? 'acme/storefront' : 'acme/payments-api',
        daysAgo: week * 7 + offset,
        trigger: 'slack',
        branch: null,
      });
    }
  }
  TICKETS.forEach((ticket, index) => {
    list.push({ title: `ACME-${2291 + index * 37}: ${ticket}`, repository: 'acme/storefront', daysAgo: random.int(DAYS), trigger: 'jira' });
  });
  const reviewed = ['acme/storefront', 'acme/payments-api', 'acme/mobile-app', 'acme/design-system', 'acme/infra'];
  while (list.length < CONVERSATION_COUNT - 6) {
    const pr = 1180 + list.length * 3 + random.int(3);
    list.push({
      title: `Address the review comments on PR #${pr}`,
      repository: random.pick(reviewed),
      daysAgo: random.int(DAYS),
      trigger: 'resolver',
      prNumber: [pr],
      branch: `pr-${pr}`,
    });
  }
  while (list.length < CONVERSATION_COUNT) {
    list.push({ title: 'Fix the failing build on main', repository: random.pick(reviewed), daysAgo: random.int(DAYS), branch: null });
  }
  return list;
}

/** The conversations, oldest first. */
export function planConversations(now: Date, seed = 18): PlannedConversation[] {
  const random = generator(seed);
  const plan = drafts(random)
    .map((draft): PlannedConversation => {
      const repository = draft.repository ? repositoryNamed(draft.repository) : null;
      return {
        title: draft.title,
        repository,
        branch: repository ? (draft.branch === undefined ? `agent/${slug(draft.title)}` : draft.branch) : null,
        llmModel: modelAt(draft.daysAgo, random),
        trigger: draft.trigger ?? 'gui',
        prNumber: draft.prNumber ?? [],
        createdAt: onWorkDay(now, draft.daysAgo, random),
        archived: draft.daysAgo > 30 && random.chance(0.25),
        story: storyOf(draft, random.next()),
      };
    })
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  // One long piece of work a month ago, and one that went on after its sandbox was lost this week.
  const daysAgo = (conversation: PlannedConversation) => (now.getTime() - conversation.createdAt.getTime()) / DAY_MS;
  const plain = (from: number, to: number) =>
    plan.find(
      (conversation) =>
        conversation.story === 'work' && conversation.repository && daysAgo(conversation) >= from && daysAgo(conversation) < to,
    );
  const long = plain(20, 40);
  if (long) long.story = 'long';
  const continued = plain(2, 7);
  if (continued) continued.story = 'continued';
  return plan;
}

/** Most conversations did their work; some asked, some met an LLM failure; the triage ones read Sentry first. */
function storyOf(draft: Draft, roll: number): Story {
  if (!draft.repository) return 'work';
  if (draft.title.includes('Sentry')) return 'sentry';
  return roll < 0.08 ? 'llm-error' : roll < 0.18 ? 'question' : 'work';
}
