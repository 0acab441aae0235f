import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
}

/** One reply of a model: its text (may be empty) and the tools it calls (none: the turn ends). */
export interface ModelReply {
  responseId: string;
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
}

/** What the loop asks a model. `onText` gets the reply's text as it streams, with the reply's id. */
export interface Model {
  complete(
    request: { messages: ChatCompletionMessageParam[]; tools: ChatCompletionFunctionTool[] },
    onText: (delta: string, responseId: string) => void,
    signal: AbortSignal,
  ): Promise<ModelReply>;
}

/** A model failure the conversation cannot go past: a `ConversationErrorEvent` with this code. */
export class ModelFailure extends Error {
  constructor(
    readonly code: 'LLM_AUTH' | 'LLM_UNAVAILABLE' | 'LLM_CONTEXT' | 'LLM_ERROR',
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The call was cancelled (the sandbox was paused): made again on the next run, not an error. */
export class ModelAborted extends Error {}
