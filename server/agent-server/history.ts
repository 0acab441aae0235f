import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { imageUrlsOf } from '../../src/contract/conversations';
import { type AgentEvent, CONTINUED_IN_NEW_SANDBOX } from '../../src/contract/events';

interface Content {
  type?: string;
  text?: string;
}

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? (content as Content[])
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('\n')
    : '';

/** The events that answer a tool call (SDK `ObservationBaseEvent`s and `AgentErrorEvent`), by `tool_call_id`. */
export const TOOL_RESULT_KINDS: ReadonlySet<string> = new Set(['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent']);

/** What a tool result says to the LLM. */
function observationText(event: AgentEvent): string {
  const observation = event.observation as { content?: unknown; exit_code?: number | null; is_error?: boolean } | undefined;
  const body = textOf(observation?.content);
  const exit = typeof observation?.exit_code === 'number' ? `\n[exit code ${observation.exit_code}]` : '';
  return `${observation?.is_error ? '[error] ' : ''}${body}${exit}`;
}

/** What an event says, in the words the LLM is given (for a summary of it). */
export function eventText(event: AgentEvent): string {
  switch (event.kind) {
    case 'MessageEvent':
      return textOf((event.llm_message as { content: unknown }).content);
    case 'ActionEvent':
      return `${String(event.tool_name)} ${(event.tool_call as { arguments: string }).arguments}`;
    case 'ObservationEvent':
      return observationText(event);
    case 'UserRejectObservation':
      return `rejected by the user: ${String(event.rejection_reason)}`;
    case 'AgentErrorEvent':
      return String(event.error);
    default:
      return '';
  }
}

/**
 * The chat messages for the LLM, rebuilt from the stored events (or a condensed view of them): the events are the one
 * record of a conversation, so a restored conversation goes on where it was. A user message
 * that arrived while tool calls were open waits until their results are in (the Chat
 * Completions API wants results right after the calls).
 */
export function chatMessages(events: readonly AgentEvent[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  const open = new Set<string>();
  let held: ChatCompletionMessageParam[] = [];
  let assistant: (ChatCompletionAssistantMessageParam & { responseId: string | null }) | null = null;
  const push = (message: ChatCompletionMessageParam) => {
    if (open.size > 0 && message.role !== 'tool') held.push(message);
    else messages.push(message);
  };
  const toolResult = (toolCallId: unknown, content: string) => {
    if (typeof toolCallId !== 'string' || !open.delete(toolCallId)) return;
    messages.push({ role: 'tool', tool_call_id: toolCallId, content });
    if (open.size === 0) {
      messages.push(...held);
      held = [];
    }
  };
  for (const event of events) {
    switch (event.kind) {
      case 'SystemPromptEvent':
        push({ role: 'system', content: (event.system_prompt as Content).text ?? '' });
        break;
      case 'CondensationSummaryEvent':
        assistant = null;
        push({ role: 'user', content: String(event.summary) });
        break;
      case CONTINUED_IN_NEW_SANDBOX:
        assistant = null;
        push({ role: 'user', content: `Your sandbox was lost; this conversation goes on in a new one. ${String(event.detail)}` });
        break;
      case 'MessageEvent': {
        const message = event.llm_message as { role: string; content: unknown };
        const text = textOf(message.content);
        const images = imageUrlsOf(message.content);
        if (event.source === 'user' && images.length > 0) {
          // The SDK's ImageContent as OpenAI takes images: a part per URL beside the text.
          assistant = null;
          push({
            role: 'user',
            content: [{ type: 'text', text }, ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } }))],
          });
          break;
        }
        if (event.source === 'agent') {
          assistant = { role: 'assistant', content: text, responseId: (event.llm_response_id as string | null) ?? null };
          push(assistant);
        } else {
          assistant = null;
          push({ role: 'user', content: text });
        }
        break;
      }
      case 'ActionEvent': {
        const call = event.tool_call as { id: string; name: string; arguments: string };
        const toolCall: ChatCompletionMessageFunctionToolCall = {
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        };
        if (assistant && assistant.responseId === event.llm_response_id) {
          assistant.tool_calls = [...(assistant.tool_calls ?? []), toolCall];
        } else {
          assistant = { role: 'assistant', content: null, tool_calls: [toolCall], responseId: (event.llm_response_id as string) ?? null };
          push(assistant);
        }
        open.add(call.id);
        break;
      }
      case 'ObservationEvent':
        toolResult(event.tool_call_id, observationText(event));
        break;
      case 'UserRejectObservation':
        toolResult(event.tool_call_id, `The user rejected this action, so it was not run. Reason: ${String(event.rejection_reason)}`);
        break;
      case 'AgentErrorEvent':
        toolResult(event.tool_call_id, `[error] ${String(event.error)}`);
        break;
    }
  }
  messages.push(...held);
  // `responseId` is ours, not the API's.
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const { responseId: _responseId, ...rest } = message as ChatCompletionAssistantMessageParam & { responseId?: unknown };
    return rest;
  });
}
