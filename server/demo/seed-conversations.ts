import { type Caller, sessionKeyCaller } from '../authz/caller';
import { type StartRequestInput, type StartTask, startRequestSchema } from '../../src/contract/conversations';
import type { ApiServices } from '../services/create-services';
import type { PlannedConversation } from './conversation-plan';
import type { DemoClock } from './demo-clock';
import { transcript } from './transcripts';
import { eventTime } from '../../src/contract/events';
import { StoredJsonList } from '../services/json-texts';
import { constantBackoff, polls } from '../retry';

const DAY_MS = 86_400_000;
/** How much of a sandbox's log a failed start shows. */
const LOG_LINES_SHOWN = 20;

/** Polls `check` until it returns something, for at most `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for await (const _ of polls(constantBackoff(100), { timeoutMs })) {
    const value = await check();
    if (value !== undefined) return value;
  }
  throw new Error(`The demo waited in vain for ${what}`);
}

/** Starts a conversation as `POST /api/v1/app-conversations` does, and waits until it is READY; returns its id. */
export async function startConversation(
  services: ApiServices,
  clock: DemoClock,
  caller: Caller,
  at: Date,
  input: StartRequestInput,
): Promise<string> {
  const request = startRequestSchema.parse(input);
  const task = await new Promise<StartTask>((resolve, reject) => {
    clock
      .at(at, () =>
        services.startTasks.start(caller, request, (update) => {
          if (update.status === 'READY' || update.status === 'ERROR') resolve(update);
        }),
      )
      .catch(reject);
  });
  if (task.status !== 'READY' || !task.app_conversation_id) {
    // What its agent server said last, for whoever reads why the demo stopped.
    const log = task.sandbox_id ? await services.sandboxes.logs(caller, task.sandbox_id, LOG_LINES_SHOWN).catch(() => []) : [];
    const said = log.length > 0 ? `\nThe last lines of sandbox ${task.sandbox_id}'s log:\n${log.join('\n')}` : '';
    throw new Error(`A demo conversation did not start: ${task.detail}${said}`);
  }
  return task.app_conversation_id;
}

/**
 * One past conversation of `caller`'s in sandbox `sandboxId`: started at its date; its events sent as its
 * agent server's webhook would, after the system prompt its agent server sent; archived a few
 * days later.
 */
export async function seedConversation(
  services: ApiServices,
  clock: DemoClock,
  caller: Caller,
  sandboxId: string,
  planned: PlannedConversation,
): Promise<void> {
  const id = await startConversation(services, clock, caller, planned.createdAt, {
    sandbox_id: sandboxId,
    title: planned.title,
    selected_repository: planned.repository?.name ?? null,
    selected_branch: planned.branch,
    git_provider: planned.repository?.provider ?? null,
    llm_model: planned.llmModel,
    trigger: planned.trigger,
    pr_number: planned.prNumber,
  });
  // The history goes on from the system prompt, as a live one would: it is dated when the start reached the agent.
  const prompted = await until('a system prompt', async () => {
    const { items } = await services.events.search(sessionKeyCaller, {
      conversation_id__eq: id,
      kind__eq: 'SystemPromptEvent',
      sort_order: 'TIMESTAMP',
      limit: 1,
    });
    const [prompt] = items instanceof StoredJsonList ? items.toJSON() : items;
    return prompt && new Date(eventTime(prompt.timestamp));
  });
  await services.events.receiveFromSandbox(sandboxId, id, transcript({ ...planned, createdAt: prompted }));
  if (planned.archived) {
    await clock.at(new Date(planned.createdAt.getTime() + 3 * DAY_MS), () =>
      services.conversations.update(sessionKeyCaller, id, { archived: true }),
    );
  }
}

/** Runs `work` on every item, at most `parallel` at a time; stops at the first failure. */
export async function inParallel<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}
