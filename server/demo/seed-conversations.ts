import { type Caller, sessionKeyCaller } from '../authz/caller';
import { type StartRequestInput, type StartTask, startRequestSchema } from '../../src/contract/conversations';
import type { ApiServices } from '../services/create-services';
import type { PlannedConversation } from './conversation-plan';
import type { DemoClock } from './demo-clock';
import { recordLlmCalls } from './llm-calls';
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
  { keepsRunning = false }: { keepsRunning?: boolean } = {},
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
  const history = transcript({ ...planned, createdAt: prompted });
  await services.events.receiveFromSandbox(sandboxId, id, history);
  await recordLlmCalls(services, clock, { id, user_id: caller.userId }, planned.llmModel, history, prompted);
  if (keepsRunning) await editInWorkspace(services, caller, sandboxId, id, history);
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

/** Each file's last content in a history's file edits, by its path in the workspace. */
function editedFiles(history: object[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const event of history) {
    const observation = (event as { observation?: { kind?: string; path?: string; new_content?: unknown } }).observation;
    if (observation?.kind === 'FileEditorObservation' && observation.path && typeof observation.new_content === 'string') {
      files.set(observation.path, observation.new_content);
    }
  }
  return files;
}

/**
 * A conversation whose sandbox stays running: its history's edits made in its workspace too, so
 * that its Changes and Files tabs show the work its timeline tells.
 */
async function editInWorkspace(services: ApiServices, caller: Caller, sandboxId: string, id: string, history: object[]): Promise<void> {
  const files = editedFiles(history);
  if (files.size === 0) return;
  // Its owner's view: the sandbox's key is shown to those who may use it.
  const sandbox = await services.sandboxes.get(caller, sandboxId);
  const agent = sandbox.exposed_urls?.find((url) => url.name === 'AGENT_SERVER')?.url;
  if (!agent || !sandbox.session_api_key) throw new Error(`Sandbox ${sandboxId} runs no agent server`);
  const response = await fetch(`${agent}/api/conversations/${id}`, { headers: { 'X-Session-API-Key': sandbox.session_api_key } });
  const { workspace } = (await response.json()) as { workspace: { working_dir: string } };
  for (const [file, content] of files) {
    const write = [
      'sh',
      '-c',
      'mkdir -p "$(dirname "$1")" && printf %s "$2" | base64 -d > "$1"',
      'write',
      file,
      Buffer.from(content).toString('base64'),
    ];
    const result = await services.sandboxes.exec(caller, sandboxId, write, { cwd: workspace.working_dir, timeoutMs: 10_000 });
    if (result.exitCode !== 0) throw new Error(`The demo could not write ${file} in its workspace: ${result.output}`);
  }
}
