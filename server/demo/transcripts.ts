import { randomUUID } from 'node:crypto';
import type { PlannedConversation } from './conversation-plan';

/*
 * What an agent did in a past conversation, as the events its agent server would have sent (the
 * agent SDK's shapes, as `server/agent-server` writes them), dated from the conversation's start:
 * the task, a look around, an edit, the checks, and how it ended. Most finish; some stop to ask,
 * some hit the LLM provider's limits. The last frame is the metrics (cost and tokens).
 */

interface Toolchain {
  look: string;
  lookOutput: string;
  file: string;
  check: string;
  checkOutput: string;
}

const NODE: Toolchain = {
  look: 'git log --oneline -5 && ls',
  lookOutput:
    'a41c2e9 Merge pull request #1204\n7d0b3f1 Bump vitest to 4.1\nc93e8aa Fix cart total rounding\nREADME.md  app  package.json  public  tests',
  file: 'app/page.tsx',
  check: 'npm test -- --run',
  checkOutput: ' Test Files  38 passed (38)\n      Tests  412 passed (412)\n   Duration  9.84s',
};

const TOOLCHAINS: Record<string, Toolchain> = {
  'acme/mobile-app': {
    ...NODE,
    file: 'App.tsx',
    check: 'npx jest --silent',
    checkOutput: 'Tests:       96 passed, 96 total\nTime:        14.2 s',
  },
  'acme/design-system': { ...NODE, file: 'src/Button.tsx' },
  'acme/payments-api': {
    look: 'git log --oneline -5 && ls internal',
    lookOutput: 'e5f0b21 Add payout batch metrics\n19ac7d3 Refactor ledger client\nbilling  ledger  payouts  refunds  webhooks',
    file: 'internal/refunds/refund.go',
    check: 'go test ./...',
    checkOutput:
      'ok  \tacme/payments-api/internal/billing\t0.412s\nok  \tacme/payments-api/internal/refunds\t0.208s\nok  \tacme/payments-api/internal/webhooks\t1.031s',
  },
  'acme/infra': {
    look: 'ls staging production modules',
    lookOutput: 'staging:\nmain.tf  variables.tf\n\nproduction:\nmain.tf  variables.tf\n\nmodules:\neks  rds  redis  vpc',
    file: 'staging/main.tf',
    check: 'terraform fmt -check -recursive && terraform validate',
    checkOutput: 'Success! The configuration is valid.',
  },
  'data/pipelines': {
    look: 'ls dags models',
    lookOutput: 'dags:\ndaily_sessions.py  nightly_export.py\n\nmodels:\nmarts  staging',
    file: 'dags/daily_sessions.py',
    check: 'dbt build --select state:modified+',
    checkOutput: 'Completed successfully\n\nDone. PASS=14 WARN=0 ERROR=0 SKIP=0 TOTAL=14',
  },
  'data/forecasting': {
    look: 'ls && head -20 train.py',
    lookOutput: 'README.md  features  notebooks  tests  train.py\ndef train(frame):\n    ...',
    file: 'train.py',
    check: 'pytest -q',
    checkOutput: '........................                                   [100%]\n24 passed in 4.81s',
  },
};

const text = (value: string) => [{ type: 'text' as const, text: value, cache_prompt: false }];

/** Builds the events one by one, each a little later than the one before. */
class Recorder {
  readonly frames: object[] = [];
  #at: number;
  #responses = 0;

  constructor(start: Date) {
    this.#at = start.getTime();
  }

  #event(kind: string, source: string, fields: object, afterSeconds: number) {
    this.#at += Math.round(afterSeconds * (0.6 + Math.random() * 0.8) * 1000);
    this.frames.push({ kind, id: randomUUID(), timestamp: new Date(this.#at).toISOString(), source, ...fields });
  }

  message(source: 'user' | 'agent', body: string, afterSeconds: number) {
    const role = source === 'user' ? 'user' : 'assistant';
    this.#event(
      'MessageEvent',
      source,
      {
        llm_message: { role, content: text(body), tool_calls: null, tool_call_id: null, name: null, reasoning_content: null },
        llm_response_id: source === 'agent' ? `resp_${++this.#responses}` : null,
        activated_skills: [],
        extended_content: [],
        sender: null,
      },
      afterSeconds,
    );
  }

  /** An action and what came of it. */
  tool(name: string, action: Record<string, unknown>, observation: Record<string, unknown>, seconds: number) {
    const callId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const { kind: _kind, ...args } = action;
    this.#event(
      'ActionEvent',
      'agent',
      {
        thought: [],
        reasoning_content: null,
        action,
        tool_name: name,
        tool_call_id: callId,
        tool_call: { id: callId, name, arguments: JSON.stringify(args), origin: 'completion' },
        llm_response_id: `resp_${++this.#responses}`,
        security_risk: 'LOW',
      },
      8,
    );
    const actionId = (this.frames.at(-1) as { id: string }).id;
    this.#event('ObservationEvent', 'environment', { tool_name: name, tool_call_id: callId, observation, action_id: actionId }, seconds);
  }

  terminal(command: string, output: string, seconds: number) {
    this.tool(
      'terminal',
      { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
      { kind: 'TerminalObservation', content: text(output), is_error: false, command, exit_code: 0, timeout: false },
      seconds,
    );
  }

  error(code: string, detail: string) {
    this.#event('ConversationErrorEvent', 'agent', { code, detail }, 20);
  }
}

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
    key: 'metrics',
    value: {
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
    },
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

  const tools = TOOLCHAINS[repository] ?? NODE;
  recorder.message('agent', `I'll look at how ${repository} is laid out first, then at ${tools.file}.`, 6);
  recorder.terminal(tools.look, tools.lookOutput, 2);
  recorder.tool(
    'file_editor',
    {
      kind: 'FileEditorAction',
      command: 'view',
      path: tools.file,
      file_text: null,
      old_str: null,
      new_str: null,
      insert_line: null,
      view_range: null,
    },
    {
      kind: 'FileEditorObservation',
      content: text(`Here is ${tools.file} with line numbers.`),
      is_error: false,
      command: 'view',
      path: tools.file,
    },
    1,
  );
  const ending = Math.random();
  if (ending < 0.08) {
    recorder.error(
      'LLM_UNAVAILABLE',
      'The LLM provider responded with 529 (overloaded) three times in a row. Press Continue to try again.',
    );
    return [...recorder.frames, metricsFrame(conversation.llmModel, 3)];
  }
  if (ending < 0.18) {
    recorder.message('agent', `Before I change ${tools.file}: should this go behind a feature flag, or ship directly?`, 30);
    return [...recorder.frames, metricsFrame(conversation.llmModel, 3)];
  }
  recorder.tool(
    'file_editor',
    {
      kind: 'FileEditorAction',
      command: 'str_replace',
      path: tools.file,
      file_text: null,
      old_str: '…',
      new_str: '…',
      insert_line: null,
      view_range: null,
    },
    {
      kind: 'FileEditorObservation',
      content: text(`The file ${tools.file} has been edited.`),
      is_error: false,
      command: 'str_replace',
      path: tools.file,
    },
    1,
  );
  recorder.terminal(tools.check, tools.checkOutput, 25);
  recorder.terminal(
    'git add -A && git commit -qm "' + conversation.title.replaceAll('"', "'") + '" && git log --oneline -1',
    `3f9c1d2 ${conversation.title}`,
    2,
  );
  const summary = `Done. The checks pass (\`${tools.check}\`); the change is committed on \`${conversation.branch ?? 'main'}\`.`;
  recorder.tool(
    'finish',
    { kind: 'FinishAction', message: summary },
    { kind: 'FinishObservation', content: text(summary), is_error: false },
    1,
  );
  return [...recorder.frames, metricsFrame(conversation.llmModel, 6)];
}
