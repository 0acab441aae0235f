import { randomUUID } from 'node:crypto';
import { statsOf } from '../../src/contract/conversations';
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
  /** The file's text before the agent's edit, and the line the edit changes in it. */
  before: string;
  changed: string;
  check: string;
  checkOutput: string;
}

const NODE: Toolchain = {
  look: 'git log --oneline -5 && ls',
  lookOutput:
    'a41c2e9 Merge pull request #1204\n7d0b3f1 Bump vitest to 4.1\nc93e8aa Fix cart total rounding\nREADME.md  app  package.json  public  tests',
  file: 'app/page.tsx',
  before:
    "import { CartSummary } from './cart-summary';\nimport { getCart } from '@/lib/cart';\n\nexport default async function Page() {\n  const cart = await getCart();\n  return <CartSummary items={cart.items} />;\n}\n",
  changed: '  return <CartSummary items={cart.items} />;',
  check: 'npm test -- --run',
  checkOutput: [
    ' RUN  v4.1.2 /workspace/storefront',
    '',
    ' ✓ tests/cart/total.test.ts (12 tests) 41ms',
    ' ✓ tests/cart/discounts.test.ts (18 tests) 63ms',
    ' ✓ tests/checkout/address.test.tsx (9 tests) 212ms',
    ' ✓ tests/checkout/payment.test.tsx (14 tests) 388ms',
    ' ✓ tests/search/query.test.ts (31 tests) 97ms',
    ' ✓ tests/app/page.test.tsx (6 tests) 154ms',
    '',
    ' Test Files  38 passed (38)',
    '      Tests  412 passed (412)',
    '   Duration  9.84s',
  ].join('\n'),
};

const TOOLCHAINS: Record<string, Toolchain> = {
  'acme/mobile-app': {
    ...NODE,
    file: 'App.tsx',
    before:
      "import { NavigationContainer } from '@react-navigation/native';\nimport { RootStack } from './src/navigation';\n\nexport default function App() {\n  return (\n    <NavigationContainer>\n      <RootStack />\n    </NavigationContainer>\n  );\n}\n",
    changed: '      <RootStack />',
    check: 'npx jest --silent',
    checkOutput: 'Tests:       96 passed, 96 total\nTime:        14.2 s',
  },
  'acme/design-system': {
    ...NODE,
    file: 'src/Button.tsx',
    before:
      "export function Button({ variant = 'primary', ...props }: ButtonProps) {\n  return <button className={styles[variant]} {...props} />;\n}\n",
    changed: '  return <button className={styles[variant]} {...props} />;',
  },
  'acme/payments-api': {
    look: 'git log --oneline -5 && ls internal',
    lookOutput: 'e5f0b21 Add payout batch metrics\n19ac7d3 Refactor ledger client\nbilling  ledger  payouts  refunds  webhooks',
    file: 'internal/refunds/refund.go',
    before:
      'package refunds\n\n// Issue refunds the charge, in full or in part.\nfunc Issue(ctx context.Context, charge Charge, amount int64) (Refund, error) {\n\treturn client.Refund(ctx, charge.ID, amount)\n}\n',
    changed: '\treturn client.Refund(ctx, charge.ID, amount)',
    check: 'go test ./...',
    checkOutput:
      'ok  \tacme/payments-api/internal/billing\t0.412s\nok  \tacme/payments-api/internal/refunds\t0.208s\nok  \tacme/payments-api/internal/webhooks\t1.031s',
  },
  'acme/infra': {
    look: 'ls staging production modules',
    lookOutput: 'staging:\nmain.tf  variables.tf\n\nproduction:\nmain.tf  variables.tf\n\nmodules:\neks  rds  redis  vpc',
    file: 'staging/main.tf',
    before: 'module "redis" {\n  source         = "../modules/redis"\n  node_type      = "cache.t4g.small"\n  replica_count  = 1\n}\n',
    changed: '  replica_count  = 1',
    check: 'terraform fmt -check -recursive && terraform validate',
    checkOutput: 'Success! The configuration is valid.',
  },
  'data/pipelines': {
    look: 'ls dags models',
    lookOutput: 'dags:\ndaily_sessions.py  nightly_export.py\n\nmodels:\nmarts  staging',
    file: 'dags/daily_sessions.py',
    before:
      'with DAG("daily_sessions", schedule="0 3 * * *", catchup=False) as dag:\n    extract = extract_sessions()\n    load = load_to_warehouse(extract)\n',
    changed: '    load = load_to_warehouse(extract)',
    check: 'dbt build --select state:modified+',
    checkOutput: 'Completed successfully\n\nDone. PASS=14 WARN=0 ERROR=0 SKIP=0 TOTAL=14',
  },
  'data/forecasting': {
    look: 'ls && head -20 train.py',
    lookOutput: 'README.md  features  notebooks  tests  train.py\ndef train(frame):\n    ...',
    file: 'train.py',
    before:
      'def train(frame):\n    model = GradientBoostingRegressor(n_estimators=200)\n    model.fit(frame[FEATURES], frame["demand"])\n    return model\n',
    changed: '    model.fit(frame[FEATURES], frame["demand"])',
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

  /** The file editor changing `path` from `before` to `after` (its observation carries both, for the diff). */
  edit(path: string, before: string, after: string) {
    this.tool(
      'file_editor',
      {
        kind: 'FileEditorAction',
        command: 'str_replace',
        path,
        file_text: null,
        old_str: '…',
        new_str: '…',
        insert_line: null,
        view_range: null,
      },
      {
        kind: 'FileEditorObservation',
        content: text(`The file ${path} has been edited.`),
        is_error: false,
        command: 'str_replace',
        path,
        prev_exist: true,
        old_content: before,
        new_content: after,
      },
      1,
    );
  }

  /** A call of tool `tool` of MCP server `server`, and its result. */
  mcp(server: string, tool: string, args: object, output: string) {
    this.tool(
      `${server}_${tool}`,
      { kind: 'MCPToolAction', data: args },
      { kind: 'MCPToolObservation', content: text(output), is_error: false, tool_name: `${server}_${tool}` },
      3,
    );
  }

  /** The condenser summarising every event so far but the first two. */
  condensation(summary: string) {
    const forgotten = this.frames.slice(2).map((frame) => (frame as { id: string }).id);
    this.#event(
      'Condensation',
      'environment',
      { forgotten_event_ids: forgotten, summary, summary_offset: 2, llm_response_id: `resp_${++this.#responses}` },
      5,
    );
  }

  /** A command whose sandbox was lost while it ran: its action, never observed. */
  lostCommand(command: string) {
    const callId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    this.#event(
      'ActionEvent',
      'agent',
      {
        thought: [],
        reasoning_content: null,
        action: { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
        tool_name: 'terminal',
        tool_call_id: callId,
        tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
        llm_response_id: `resp_${++this.#responses}`,
        security_risk: 'LOW',
      },
      8,
    );
    return callId;
  }

  /** What going on in a new sandbox writes: the open action ended, and what did not carry over. */
  continued(callId: string, repository: string, branch: string | null) {
    this.#event(
      'AgentErrorEvent',
      'agent',
      {
        tool_name: 'terminal',
        tool_call_id: callId,
        error: 'Its sandbox was lost before this action ended: it did not run in the new one.',
      },
      3600,
    );
    this.#event(
      'ContinuedInNewSandboxEvent',
      'environment',
      {
        previous_sandbox_id: randomUUID().replaceAll('-', ''),
        repository,
        branch,
        detail: `The repository ${repository} was cloned again${branch ? ` at ${branch}` : ''}: what the old workspace held and was not pushed (changes not committed, commits not pushed, other files) did not carry over.`,
      },
      1,
    );
  }

  error(code: string, detail: string) {
    this.#event('ConversationErrorEvent', 'agent', { code, detail }, 20);
  }
}

/** A short commit hash, different for every commit. */
const commitHash = () => randomUUID().replaceAll('-', '').slice(0, 7);

/** The toolchain's file after an edit for `task`: its changed line with a note of the task beside it. */
function edited(tools: Toolchain, task: string): string {
  const comment = tools.file.endsWith('.py') || tools.file.endsWith('.tf') ? '#' : '//';
  const indent = /^\s*/.exec(tools.changed)![0];
  return tools.before.replace(tools.changed, `${indent}${comment} ${task}\n${tools.changed}`);
}

const SENTRY_ISSUES = JSON.stringify(
  [
    { id: 'STOREFRONT-4F2', title: "TypeError: Cannot read properties of undefined (reading 'price')", count: 212, lastSeen: '03:41' },
    { id: 'PAYMENTS-9A1', title: 'context deadline exceeded: ledger.Post', count: 37, lastSeen: '02:12' },
    { id: 'STOREFRONT-4E8', title: 'ChunkLoadError: Loading chunk 812 failed', count: 9, lastSeen: '05:03' },
  ],
  null,
  2,
);

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
      content: text(
        tools.before
          .trimEnd()
          .split('\n')
          .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
          .join('\n'),
      ),
      is_error: false,
      command: 'view',
      path: tools.file,
    },
    1,
  );
  const branch = conversation.branch;
  switch (conversation.story) {
    case 'llm-error':
      recorder.error(
        'LLM_UNAVAILABLE',
        'The LLM provider responded with 529 (overloaded) three times in a row. Press Continue to try again.',
      );
      return [...recorder.frames, metricsFrame(conversation.llmModel, 3)];
    case 'question':
      recorder.message('agent', `Before I change ${tools.file}: should this go behind a feature flag, or ship directly?`, 30);
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
        `USER_CONTEXT: ${conversation.title} in ${repository}.\nCOMPLETED: looked at the history, the TODOs and the tests of ${tools.file}.\nPENDING: make the change in ${tools.file}, run \`${tools.check}\`, commit.`,
      );
      break;
    case 'sentry':
      recorder.mcp('sentry', 'list_issues', { project: repository.split('/')[1], since: '12h' }, SENTRY_ISSUES);
      recorder.message('agent', 'The first one (212 events) comes from the cart; the other two look transient. Fixing the first.', 10);
      break;
    case 'work':
      break;
  }
  recorder.edit(tools.file, tools.before, edited(tools, conversation.title));
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
