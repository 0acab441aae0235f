import { randomUUID } from 'node:crypto';
import { statsOf } from '../../src/contract/conversations';
import type { PlannedConversation } from './conversation-plan';
import { Recorder, text } from './recorder';
import { firstFile, taskKindOf, WORK } from './task-kinds';
import { toolchainOf } from './toolchains';

/*
 * What an agent did in a past conversation, as the events its agent server would have sent, dated
 * from the conversation's start: the task, a look around, the work its kind of task takes (see
 * task-kinds.ts), the checks, and how it ended. Most finish; some stop to ask, some hit the LLM
 * provider's limits. The last frame is the metrics (cost and tokens).
 */

/** A short commit hash, different for every commit. */
const commitHash = () => randomUUID().replaceAll('-', '').slice(0, 7);

function metricsFrame(model: string, calls: number) {
  const prompt = calls * (9_000 + Math.round(Math.random() * 14_000));
  const completion = calls * (400 + Math.round(Math.random() * 900));
  const cacheRead = Math.round(prompt * 0.6);
  const [input, output] = model.includes('haiku') ? [1, 5] : model.includes('gpt') ? [2, 8] : [3, 15];
  const cost = ((prompt - cacheRead) * input + cacheRead * input * 0.1 + completion * output) / 1_000_000;
  const name = model.split('/').at(-1)!;
  return {
    kind: 'ConversationStateUpdateEvent',
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    source: 'environment',
    key: 'stats',
    value: statsOf({
      model_name: name,
      accumulated_cost: Math.round(cost * 10_000) / 10_000,
      max_budget_per_task: 5,
      accumulated_token_usage: {
        model: name,
        prompt_tokens: prompt,
        completion_tokens: completion,
        cache_read_tokens: cacheRead,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        context_window: 200_000,
        per_turn_token: Math.round((prompt + completion) / calls),
        response_id: '',
      },
      cost_known: true,
    }),
  };
}

/** The events of `conversation`, as its agent server would have sent them. */
export function transcript(conversation: PlannedConversation): object[] {
  const recorder = new Recorder(conversation.createdAt);
  const repository = conversation.repository?.name;
  recorder.message('user', repository ? `${conversation.title} in ${repository}.` : `${conversation.title}.`, 1);

  if (!repository) {
    recorder.message(
      'agent',
      `Here is a first version; tell me what to change.\n\n## ${conversation.title}\n\n- What we know\n- Options, with their costs\n- A recommendation`,
      40,
    );
    recorder.tool(
      'finish',
      { kind: 'FinishAction', message: 'Draft written above.' },
      { kind: 'FinishObservation', content: text('Draft written above.'), is_error: false },
      1,
    );
    return [...recorder.frames, metricsFrame(conversation.llmModel, 2)];
  }

  const tools = toolchainOf(repository);
  const kind = taskKindOf(conversation, tools);
  const file = firstFile(kind, tools);
  recorder.message('agent', `I'll look at how ${repository} is laid out first, then at ${file}.`, 6);
  recorder.terminal(tools.look, tools.lookOutput, 2);
  // A triage reads the alerts before it knows which file to open.
  if (kind !== 'triage' && kind !== 'release-notes')
    recorder.view(file, file === tools.file ? tools.before : tools.dependencies!.manifestText(tools.dependencies!.pinned));
  const branch = conversation.branch;
  switch (conversation.story) {
    case 'llm-error':
      recorder.error(
        'LLM_UNAVAILABLE',
        'The LLM provider responded with 529 (overloaded) three times in a row. Press Continue to try again.',
      );
      return [...recorder.frames, metricsFrame(conversation.llmModel, 3)];
    case 'question':
      recorder.message('agent', `Before I change ${file}: should this go behind a feature flag, or ship directly?`, 30);
      return [...recorder.frames, metricsFrame(conversation.llmModel, 3)];
    case 'continued': {
      const lost = recorder.lostCommand(tools.check);
      recorder.continued(lost, repository, branch);
      recorder.message(
        'agent',
        `The sandbox went away while \`${tools.check}\` ran. The workspace is fresh: I'll make the change again and run the checks.`,
        20,
      );
      break;
    }
    case 'long':
      for (const step of ['git log --oneline -20', 'git grep -n TODO | head -20', 'ls tests', 'git diff --stat HEAD~5']) {
        recorder.terminal(step, `${commitHash()} ${conversation.title}\n${commitHash()} Earlier work on the same module`, 2);
      }
      recorder.condensation(
        `USER_CONTEXT: ${conversation.title} in ${repository}.\nCOMPLETED: looked at the history, the TODOs and the tests of ${file}.\nPENDING: make the change in ${file}, run \`${tools.check}\`, commit.`,
      );
      break;
    case 'sentry':
    case 'work':
      break;
  }
  WORK[kind](recorder, conversation, tools);
  recorder.terminal(tools.check, tools.checkOutput, 25);
  recorder.terminal(
    'git add -A && git commit -qm "' + conversation.title.replaceAll('"', "'") + '" && git log --oneline -1',
    `${commitHash()} ${conversation.title}`,
    2,
  );
  const summary = `Done. The checks pass (\`${tools.check}\`); the change is committed on \`${branch ?? 'main'}\`.`;
  recorder.tool(
    'finish',
    { kind: 'FinishAction', message: summary },
    { kind: 'FinishObservation', content: text(summary), is_error: false },
    1,
  );
  return [...recorder.frames, metricsFrame(conversation.llmModel, conversation.story === 'long' ? 14 : 6)];
}
