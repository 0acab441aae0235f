import type { AgentConversationInfo, AgentStartConversation, LlmPrice, SecurityRisk } from './contract';
import { type ExecutionStatus, type Metrics, type SendMessageRequest, statsOf } from '../../src/contract/conversations';
import { type AgentEvent, CONTINUED_IN_NEW_SANDBOX, DEMO_MODEL } from '../../src/contract/events';
import type { ConversationFiles } from './conversation-files';
import { demoModel } from './demo-model';
import type { EventLog } from './event-log';
import { newEvent, stateUpdate } from './event-factory';
import { openAiModel } from './llm';
import { runAgent } from './loop';
import { Masker, MaskedStream } from './masking';
import { initialMetrics } from './metrics';
import type { Model } from './model';
import { connectMcpServers, type McpFailure, mcpSecrets } from './tools/mcp';
import { Tools } from './tools/tools';
import { webSearchTool } from './tools/web-search';
import { TOOL_RESULT_KINDS } from './history';
import { keptOutput } from '../../src/contract/running-output';

/** A request the conversation's state does not allow: the response is a 409 with `message`. */
export class ConversationConflict extends Error {}

/** A frame on the event socket: a stored event, or a transient one (state update, streaming delta). */
export type Frame = Record<string, unknown>;

/** How much of a command's output is sent (and written to the sandbox's log) while it runs; more waits for its observation. */
const LIVE_OUTPUT_CHARS = 256 * 1024;

/** What a conversation holds in memory only: never written to a file or a log. */
export interface Credentials {
  llm: AgentStartConversation['agent']['llm'];
  secrets: Record<string, string>;
  /** The sandbox's own key, masked too in case a command prints it. */
  sessionKey: string;
}

const RISK_ORDER: Record<Exclude<SecurityRisk, 'UNKNOWN'>, number> = { LOW: 1, MEDIUM: 2, HIGH: 3 };

/** Why a run stops at the next step. */
type StopReason = 'user' | 'sandbox_paused';

/**
 * One conversation: its info, its event log, the agent's run and the sockets that follow it.
 * Every event passes `append`, which masks secret values before it is stored or sent.
 */
export class Conversation {
  #info: AgentConversationInfo;
  #credentials!: Credentials;
  #settings!: Pick<AgentStartConversation, 'max_budget_per_task' | 'environment'>;
  #securityAnalyzer: AgentStartConversation['security_analyzer'] = null;
  #condenser: AgentStartConversation['agent']['condenser'] = null;
  #masker!: Masker;
  #model: Model | null = null;
  readonly #listeners = new Set<(frame: Frame) => void>();
  /** The output so far (its end) of the command running (one at a time), by its action's id. */
  #runningOutput: { actionId: string; output: string } | undefined;
  readonly tools: Tools;

  #run: Promise<void> | null = null;
  #stop: StopReason | null = null;
  #abort = new AbortController();
  /** Interrupts a running command: only a person's Stop does (a sandbox pause froze it, and it goes on). */
  #interrupt = new AbortController();
  /** Actions the user approved (confirmation mode). */
  readonly #approved = new Set<string>();
  /** A user message came in while the agent was running: the turn goes on for it. */
  userMessageArrived = false;

  constructor(
    info: AgentConversationInfo,
    private readonly files: ConversationFiles,
    private readonly log: EventLog,
    request: AgentStartConversation,
    credentials: Pick<Credentials, 'sessionKey'>,
  ) {
    this.#info = info;
    this.tools = new Tools(() => ({
      workingDir: this.#info.workspace.working_dir,
      env: this.#terminalEnv(),
      mask: (text) => this.mask(text),
    }));
    this.configure(request, credentials);
  }

  /** Takes the start request's LLM, secrets and limits (again after a restart or a re-sent start). */
  configure(request: AgentStartConversation, credentials: Pick<Credentials, 'sessionKey'>): void {
    const { llm } = request.agent;
    this.#credentials = {
      llm,
      ...credentials,
      secrets: Object.fromEntries(Object.entries(request.secrets).map(([name, secret]) => [name, secret.value])),
    };
    this.#settings = { max_budget_per_task: request.max_budget_per_task, environment: request.environment };
    this.#securityAnalyzer = request.security_analyzer;
    this.#condenser = request.agent.condenser;
    const search = request.agent.web_search;
    this.tools.setWebSearch(search && webSearchTool(search));
    this.#masker = new Masker({
      ...mcpSecrets(request.agent.mcp_config),
      ...this.#credentials.secrets,
      LLM_API_KEY: llm.api_key,
      WEB_SEARCH_TOKEN: search?.api_key ?? null,
      SESSION_API_KEY: credentials.sessionKey,
    });
    this.#model = llm.model === null ? null : llm.model === DEMO_MODEL ? demoModel() : openAiModel({ ...llm, model: llm.model });
    const metrics = this.#info.metrics ?? initialMetrics(llm.model, this.price, request.max_budget_per_task);
    this.#info = {
      ...this.#info,
      agent: { llm: { model: llm.model, base_url: llm.base_url } },
      workspace: request.workspace,
      confirmation_policy: request.confirmation_policy,
      max_iterations: request.max_iterations,
      metrics: {
        ...metrics,
        model_name: llm.model ?? 'default',
        max_budget_per_task: request.max_budget_per_task,
        // A cost carried from an agent whose model had no price stays unknown.
        cost_known: metrics.cost_known && this.price !== null,
      },
    };
    this.#save();
  }

  /**
   * Starts the MCP servers and offers their tools to the agent; each server that fails is said in
   * an event, and the agent goes on without it.
   */
  async connectMcpServers(config: AgentStartConversation['agent']['mcp_config']): Promise<McpFailure[]> {
    const { tools, failures } = await connectMcpServers(config, this.#info.workspace.working_dir);
    this.tools.addMcpTools(tools);
    return failures;
  }

  /** An MCP server that did not start or answer, as an event of its own. */
  reportMcpFailure({ server, reason }: McpFailure): void {
    this.append(
      newEvent('ConversationErrorEvent', 'environment', {
        code: 'MCP_UNAVAILABLE',
        detail: `The MCP server ${server} is not available: ${reason}. The agent goes on without its tools.`,
      }),
    );
  }

  get id(): string {
    return this.#info.id;
  }

  get info(): AgentConversationInfo {
    return this.#info;
  }

  get model(): Model | null {
    return this.#model;
  }

  /** The app server knows the prices (the demo model's too) and sends them: null is an unknown cost. */
  get price(): LlmPrice | null {
    return this.#credentials.llm.price;
  }

  get confirming(): boolean {
    return this.#info.confirmation_policy.kind !== 'NeverConfirm';
  }

  /** How its history is summarised when it grows long; `null`: it is not. */
  get condenser(): AgentStartConversation['agent']['condenser'] {
    return this.#condenser;
  }

  /** The model rates each action it asks for (the LLM security analyzer): a call without a rating is refused. */
  get ratesRisk(): boolean {
    return this.#securityAnalyzer !== null;
  }

  get running(): boolean {
    return this.#run !== null;
  }

  events(): readonly AgentEvent[] {
    return this.log.all();
  }

  /**
   * Follows every stored event and transient frame from now on, starting with the output so far of
   * a command still running (the app server may connect while one runs).
   */
  subscribe(listener: (frame: Frame) => void): () => void {
    const running = this.#runningOutput;
    if (running) listener({ ...this.#terminalFrame(running.actionId, running.output), whole: true });
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Takes on the history of the sandbox it was in (its system prompt aside: this sandbox's comes
   * first), ends the actions that were still open there, and says what did and did not carry over,
   * to the person and to the agent.
   */
  continueFrom({ sandbox_id, repository, branch, history, left_out }: NonNullable<AgentStartConversation['continued_from']>): void {
    for (const event of history) if (event.kind !== 'SystemPromptEvent') this.log.append(event);
    for (const action of this.pendingActions()) {
      this.append(
        newEvent('AgentErrorEvent', 'agent', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          error: 'Its sandbox was lost before this action ended: it did not run in the new one.',
        }),
      );
    }
    const workspace = repository
      ? `The repository ${repository} was cloned again${branch ? ` at ${branch}` : ''}: what the old workspace held and was not pushed (changes not committed, commits not pushed, other files) did not carry over.`
      : 'The workspace starts empty: the files of the old one did not carry over.';
    const shortened =
      left_out > 0
        ? ` The history was long: ${left_out} events between the first message and the newest ones were left out of the agent's memory.`
        : '';
    const detail = `${workspace}${shortened}`;
    this.append(newEvent(CONTINUED_IN_NEW_SANDBOX, 'environment', { previous_sandbox_id: sandbox_id, repository, branch, detail }));
  }

  /** A line in the sandbox's log about this conversation (its text masked). */
  logLine(text: string): void {
    console.log(`agent-server: conversation ${this.id.slice(0, 8)}: ${this.#masker.text(text)}`);
  }

  /** Stores `event` (masked) and sends it to the sockets. */
  append<E extends AgentEvent>(event: E): E {
    // An observation holds its command's output: it runs no more.
    const actionId = (event as { action_id?: unknown }).action_id;
    if (typeof actionId === 'string' && this.#runningOutput?.actionId === actionId) this.#runningOutput = undefined;
    const masked = this.#masker.deep(event);
    this.log.append(masked);
    this.#touch();
    this.#broadcast(masked);
    return masked;
  }

  /** `text` with the secret values replaced: for anything that leaves without `append` (a log line). */
  mask(text: string): string {
    return this.#masker.text(text);
  }

  /** A text stream whose masked deltas go out as `StreamingDelta` frames (never stored). */
  streamText(responseId: string): (chunk: string) => void {
    const stream = new MaskedStream(this.#masker);
    return (chunk) => {
      const delta = stream.push(chunk);
      if (delta) this.#broadcast({ kind: 'StreamingDelta', conversation_id: this.id, llm_response_id: responseId, delta });
    };
  }

  /**
   * A running command's output, masked, as `TerminalOutput` frames (never stored) and in the
   * sandbox's log, up to LIVE_OUTPUT_CHARS: its observation has the output whole (or cut as the
   * LLM gets it).
   */
  terminalOutput(actionId: string): (chunk: string) => void {
    const stream = new MaskedStream(this.#masker);
    let sent = 0;
    return (chunk) => {
      if (sent >= LIVE_OUTPUT_CHARS) return;
      const output = stream.push(chunk);
      if (!output) return;
      sent += output.length;
      const before = this.#runningOutput?.actionId === actionId ? this.#runningOutput.output : undefined;
      this.#runningOutput = { actionId, output: keptOutput(before, { output }) };
      this.#broadcast(this.#terminalFrame(actionId, output));
      // The sandbox's log has what its commands wrote too, as it comes (masked, as on the socket).
      process.stdout.write(output);
    };
  }

  #terminalFrame(actionId: string, output: string): Frame {
    return { kind: 'TerminalOutput', conversation_id: this.id, action_id: actionId, output };
  }

  setStatus(status: ExecutionStatus): void {
    if (this.#info.execution_status === status) return;
    this.#info = { ...this.#info, execution_status: status };
    this.#touch();
    this.logLine(`the agent is ${status.replaceAll('_', ' ')}`);
    this.#broadcast(stateUpdate('execution_status', status));
  }

  setMetrics(metrics: Metrics): void {
    this.#info = { ...this.#info, metrics };
    this.#touch();
    // As the SDK's agent server sends them, for OpenHands' web client as for the app server.
    this.#broadcast(stateUpdate('stats', statsOf(metrics)));
  }

  setTitle(title: string): void {
    this.#info = { ...this.#info, title };
    this.#touch();
  }

  /** A `ConversationErrorEvent` and status `error`: the run cannot go on. */
  fail(code: string, detail: string): void {
    this.append(newEvent('ConversationErrorEvent', 'environment', { code, detail }));
    this.setStatus('error');
  }

  /** Actions stored but not yet followed by their observation, a rejection or an error. */
  pendingActions(): AgentEvent[] {
    const done = new Set<unknown>();
    const actions: AgentEvent[] = [];
    for (const event of this.log.all()) {
      if (event.kind === 'ActionEvent' && event.action) actions.push(event);
      else if (TOOL_RESULT_KINDS.has(event.kind)) done.add(event.tool_call_id);
    }
    return actions.filter((action) => !done.has(action.tool_call_id));
  }

  isApproved(actionId: string): boolean {
    return !this.confirming || this.#approved.has(actionId);
  }

  /**
   * Whether `pending` waits for the user, as the SDK decides: never for a lone `finish`; in
   * confirmation mode when one of them is not approved yet and the policy asks for any of them
   * (always, or `ConfirmRisky` for one rated at its threshold or above, or not rated). Without
   * the analyzer nothing is rated.
   */
  needsConfirmation(pending: AgentEvent[]): boolean {
    if (pending.length === 1 && (pending[0]!.action as { kind?: string } | null)?.kind === 'FinishAction') return false;
    if (pending.every((action) => this.isApproved(action.id))) return false;
    const policy = this.#info.confirmation_policy;
    if (policy.kind !== 'ConfirmRisky') return policy.kind === 'AlwaysConfirm';
    const risks = pending.map((action) => (this.ratesRisk ? (action.security_risk as SecurityRisk | undefined) : undefined) ?? 'UNKNOWN');
    return risks.some((risk) => (risk === 'UNKNOWN' ? policy.confirm_unknown : RISK_ORDER[risk] >= RISK_ORDER[policy.threshold]));
  }

  /** Why the run should stop now, if it should. */
  get stopReason(): StopReason | null {
    return this.#stop;
  }

  /** Cancels an in-flight LLM call (a pause, or the sandbox was paused under it). */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Interrupts a running command or MCP call: a person pressed Stop. */
  get interruption(): AbortSignal {
    return this.#interrupt.signal;
  }

  sendMessage(request: SendMessageRequest): void {
    if (this.#info.execution_status === 'waiting_for_confirmation' && !this.running) {
      this.#reject(this.pendingActions(), 'The user sent a new message instead of approving or rejecting.');
    }
    this.append(
      newEvent('MessageEvent', 'user', {
        llm_message: {
          role: request.role,
          content: request.content,
          tool_calls: null,
          tool_call_id: null,
          name: null,
          reasoning_content: null,
        },
        llm_response_id: null,
        activated_skills: [],
        extended_content: [],
        sender: null,
      }),
    );
    if (this.running) this.userMessageArrived = true;
    else if (request.run) this.run();
    // As OpenHands: a finished conversation that got a message is no longer finished.
    else if (this.#info.execution_status === 'finished') this.setStatus('idle');
  }

  /** Starts the agent; a conflict when it is already running. */
  run(): void {
    if (this.#run) throw new ConversationConflict('Conversation already running. Wait for completion or pause first.');
    this.#stop = null;
    this.userMessageArrived = false;
    this.#abort = new AbortController();
    this.#interrupt = new AbortController();
    this.setStatus('running');
    this.#run = runAgent(this)
      .catch((error: unknown) => {
        console.error(`agent-server: the run of conversation ${this.id} failed:`, this.#masker.text(String((error as Error).message)));
        try {
          this.fail('AGENT_ERROR', `The agent stopped on an internal error: ${(error as Error).message}`);
        } catch {
          // Storing failed too (a full disk): the status stays in memory.
          this.setStatus('error');
        }
      })
      .finally(() => {
        this.#run = null;
      });
  }

  /**
   * Stops the agent at once: an LLM call in flight is dropped (made again on Continue), a running
   * command gets an interrupt (its observation says so) and no LLM call follows.
   */
  pause(): void {
    if (this.#info.execution_status === 'paused' && !this.running) return;
    this.append(newEvent('PauseEvent', 'user', {}));
    if (!this.running) return this.setStatus('paused');
    this.#stop ??= 'user';
    this.#abort.abort();
    this.#interrupt.abort();
  }

  /**
   * The sandbox was paused and resumed under a run (the app server says so): the run stops, its
   * in-flight LLM call is dropped (made again on the next run) and a `PauseEvent` says why.
   */
  sandboxResumed(): void {
    if (!this.running) return;
    this.#stop = 'sandbox_paused';
    this.#abort.abort();
  }

  /** Called by the loop when it stops for a pause. */
  stopped(reason: StopReason): void {
    if (reason === 'sandbox_paused') this.append(newEvent('PauseEvent', 'user', { reason: 'sandbox_paused' }));
    this.setStatus('paused');
  }

  respondToConfirmation(accept: boolean, reason: string): void {
    const pending = this.pendingActions().filter((action) => !this.isApproved(action.id));
    if (this.running || pending.length === 0) throw new ConversationConflict('No action is waiting for confirmation.');
    if (accept) for (const action of pending) this.#approved.add(action.id);
    else this.#reject(pending, reason);
    this.run();
  }

  #reject(actions: AgentEvent[], reason: string): void {
    for (const action of actions) {
      this.append(
        newEvent('UserRejectObservation', 'environment', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          rejection_reason: reason,
          action_id: action.id,
        }),
      );
    }
  }

  #terminalEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined && name !== 'SESSION_API_KEY') env[name] = value;
    return { ...env, ...this.#settings.environment, ...this.#credentials.secrets };
  }

  #broadcast(frame: Frame): void {
    for (const listener of this.#listeners) listener(frame);
  }

  #touch(): void {
    this.#info = { ...this.#info, updated_at: new Date().toISOString() };
    this.#save();
  }

  #save(): void {
    this.files.writeInfo(this.#info);
  }
}
