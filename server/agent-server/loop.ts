import type { Conversation } from './conversation';
import { newEvent } from './event-factory';
import { condense, shouldCondense, viewOf } from './condenser';
import { chatMessages } from './history';
import { addUsage, overBudget } from './metrics';
import { ModelAborted, ModelFailure, type ModelReply } from './model';
import { isStuck } from './stuck';
import type { Action } from './tools/tools';

const CONTEXT_FULL =
  "The conversation no longer fits the model's context, even with its history summarised. Start a new conversation, or choose a model with a larger context.";

/** The run's text with the budget, for the error event. */
const budgetDetail = (conversation: Conversation) => {
  const metrics = conversation.info.metrics;
  return `The cost so far ($${metrics?.accumulated_cost.toFixed(4)}) passed the budget per task ($${metrics?.max_budget_per_task}). Raise the budget in Settings, or start a new conversation.`;
};

/**
 * The agent's loop for one run: run the actions that may run, ask the model, store its message
 * and actions, and again, until the model responds without a tool call, calls `finish`, waits for
 * a confirmation, is paused, is stuck or hits a limit. Every step is an event.
 */
export async function runAgent(conversation: Conversation): Promise<void> {
  let calls = 0;
  for (;;) {
    const stop = conversation.stopReason;
    if (stop) return conversation.stopped(stop);

    const pending = conversation.pendingActions();
    if (pending.length > 0) {
      if (conversation.needsConfirmation(pending)) return conversation.setStatus('waiting_for_confirmation');
      for (const action of pending) {
        if (conversation.stopReason) break;
        const command =
          (action.action as { kind?: string; command?: string }).kind === 'TerminalAction'
            ? (action.action as { command: string }).command
            : undefined;
        if (command !== undefined) conversation.logLine(`$ ${command}`);
        else conversation.logLine(`runs ${String(action.tool_name)}`);
        const observation = await conversation.tools.run(
          action.action as unknown as Action,
          action.tool_name as string,
          conversation.interruption,
          conversation.terminalOutput(action.id),
        );
        if (command !== undefined) conversation.logLine(`the command ended with exit code ${String(observation.exit_code)}`);
        else if (observation.is_error) conversation.logLine(`${String(action.tool_name)} failed`);
        conversation.append(
          newEvent('ObservationEvent', 'environment', {
            tool_name: action.tool_name,
            tool_call_id: action.tool_call_id,
            observation,
            action_id: action.id,
          }),
        );
        if (observation.kind === 'FinishObservation') {
          // A message that came in meanwhile gets its reply before the run ends.
          if (conversation.userMessageArrived) break;
          return conversation.setStatus('finished');
        }
      }
      continue;
    }

    const model = conversation.model;
    if (!model) {
      return conversation.fail(
        'NO_MODEL',
        'No LLM is chosen for this conversation. Pick a model in Settings › LLM, or use the demo model (demo/scripted).',
      );
    }
    if (calls >= conversation.info.max_iterations) {
      return conversation.fail(
        'MAX_ITERATIONS',
        `The agent reached its limit of ${conversation.info.max_iterations} LLM calls for this run (Settings › max iterations). Press Continue to let it go on.`,
      );
    }
    if (conversation.info.metrics && overBudget(conversation.info.metrics))
      return conversation.fail('BUDGET_EXCEEDED', budgetDetail(conversation));
    // As OpenHands: the run ends, and a message from the user (which the detection starts after) gets it going again.
    if (isStuck(conversation.events())) return conversation.setStatus('stuck');

    const view = viewOf(conversation.events());
    const condenser = conversation.condenser;
    if (condenser && shouldCondense(view, condenser)) {
      let condensation: Awaited<ReturnType<typeof condense>>;
      try {
        condensation = await condense(view, condenser, model, conversation.signal);
      } catch (error) {
        if (error instanceof ModelAborted) continue;
        if (error instanceof ModelFailure) return conversation.fail(error.code, error.detail);
        throw error;
      }
      if (condensation) {
        calls++; // an LLM call, as the agent's are
        conversation.setMetrics(
          addUsage(conversation.info.metrics!, condensation.reply.usage, condensation.reply.responseId, conversation.price),
        );
        conversation.append(condensation.event);
        continue;
      }
      // Nothing left to forget: the context cannot be made smaller.
      if (view.unhandledRequest) return conversation.fail('LLM_CONTEXT', CONTEXT_FULL);
    }

    calls++;
    conversation.userMessageArrived = false;
    let reply: ModelReply;
    let stream: { responseId: string; push: (chunk: string) => void } | undefined;
    const onText = (chunk: string, responseId: string) => {
      if (stream?.responseId !== responseId) stream = { responseId, push: conversation.streamText(responseId) };
      stream.push(chunk);
    };
    try {
      reply = await model.complete(
        { messages: chatMessages(view.events), tools: conversation.tools.definitions },
        onText,
        conversation.signal,
      );
    } catch (error) {
      // A dropped call (the sandbox was paused) is made again on the next run.
      if (error instanceof ModelAborted) continue;
      // As OpenHands: with a condenser, a full context asks for a condensation of half the history.
      if (error instanceof ModelFailure && error.code === 'LLM_CONTEXT' && condenser) {
        conversation.append(newEvent('CondensationRequest', 'environment', {}));
        continue;
      }
      if (error instanceof ModelFailure) return conversation.fail(error.code, error.detail);
      throw error;
    }
    conversation.setMetrics(addUsage(conversation.info.metrics!, reply.usage, reply.responseId, conversation.price));
    storeReply(conversation, reply);

    if (reply.toolCalls.length === 0) {
      if (conversation.userMessageArrived) continue;
      return conversation.setStatus('finished');
    }
    if (overBudget(conversation.info.metrics!)) return conversation.fail('BUDGET_EXCEEDED', budgetDetail(conversation));
  }
}

/** The reply's text as a `MessageEvent` (replacing its streamed deltas), its tool calls as `ActionEvent`s. */
function storeReply(conversation: Conversation, reply: ModelReply): void {
  if (reply.text) {
    conversation.append(
      newEvent('MessageEvent', 'agent', {
        llm_message: {
          role: 'assistant',
          content: [{ type: 'text', text: reply.text, cache_prompt: false }],
          tool_calls: null,
          tool_call_id: null,
          name: null,
          reasoning_content: null,
        },
        llm_response_id: reply.responseId,
        activated_skills: [],
        extended_content: [],
        sender: null,
      }),
    );
  }
  for (const call of reply.toolCalls) {
    const parsed = conversation.tools.parse(call.name, call.arguments, conversation.ratesRisk);
    conversation.append(
      newEvent('ActionEvent', 'agent', {
        thought: [],
        reasoning_content: null,
        action: 'action' in parsed ? parsed.action : null,
        tool_name: call.name,
        tool_call_id: call.id,
        tool_call: { id: call.id, name: call.name, arguments: call.arguments, origin: 'completion' },
        llm_response_id: reply.responseId,
        security_risk: 'risk' in parsed ? parsed.risk : 'UNKNOWN',
      }),
    );
    if ('error' in parsed) {
      conversation.append(newEvent('AgentErrorEvent', 'agent', { tool_name: call.name, tool_call_id: call.id, error: parsed.error }));
    }
  }
}
