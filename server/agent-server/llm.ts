import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import { wireModelName } from './contract';
import { type Model, ModelAborted, ModelFailure, type ModelReply, type ToolCall } from './model';

const CONTEXT_OVERFLOW = /context_length_exceeded|maximum context length|context window|too many tokens/i;

/** The `openai` client's class, loaded at the first LLM call (then from the module cache): a sandbox's agent server starts without it. */
const loadOpenAi = async () => (await import('openai')).default;

function failureOf(OpenAIClass: typeof OpenAI, error: unknown, signal: AbortSignal): Error {
  if (signal.aborted || error instanceof OpenAIClass.APIUserAbortError) return new ModelAborted('aborted');
  if (error instanceof OpenAIClass.APIConnectionError) {
    return new ModelFailure(
      'LLM_UNAVAILABLE',
      `The LLM could not be reached after 3 retries (${error.message}). Check its base URL in Settings › LLM, or try again later.`,
    );
  }
  if (error instanceof OpenAIClass.APIError) {
    const status = error.status ?? 0;
    const message = error.message;
    if (status === 401 || status === 403) {
      return new ModelFailure(
        'LLM_AUTH',
        `The LLM rejected the key (Settings › LLM): HTTP ${status}, ${message}. Check the API key and the model in Settings › LLM.`,
      );
    }
    if (status === 429 || status >= 500) {
      return new ModelFailure(
        'LLM_UNAVAILABLE',
        `The LLM is unavailable (HTTP ${status} after 3 retries: ${message}). Wait a moment and press Continue.`,
      );
    }
    if (status === 400 && (error.code === 'context_length_exceeded' || CONTEXT_OVERFLOW.test(message))) {
      return new ModelFailure(
        'LLM_CONTEXT',
        `The conversation no longer fits in the model's context window (${message}). Start a new conversation with a shorter task, or pick a model with a larger context in Settings › LLM.`,
      );
    }
    return new ModelFailure('LLM_ERROR', `The LLM responded with an error: HTTP ${status}, ${message}.`);
  }
  return new ModelFailure('LLM_ERROR', `The LLM call failed: ${(error as Error).message ?? String(error)}.`);
}

/**
 * A model behind an OpenAI-compatible Chat Completions API, through the `openai` client (which
 * retries 429, 5xx and connection errors three times with backoff). The key lives in this
 * object only.
 */
export function openAiModel(llm: { model: string; base_url: string | null; api_key: string | null }): Model {
  let client: OpenAI | undefined;
  const model = wireModelName(llm.model);
  return {
    async complete({ messages, tools }, onText, signal): Promise<ModelReply> {
      // Some servers send no id: the deltas and the stored message still need one.
      let responseId = '';
      const fallbackId = `response-${randomUUID()}`;
      let text = '';
      const calls: ToolCall[] = [];
      let usage = { prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
      const OpenAIClass = await loadOpenAi();
      client ??= new OpenAIClass({
        apiKey: llm.api_key ?? 'no-key',
        baseURL: llm.base_url ?? undefined,
        maxRetries: 3,
        timeout: 10 * 60 * 1000,
        // The client's own log could carry request details: this server logs none.
        logLevel: 'off',
      });
      try {
        const stream = await client.chat.completions.create(
          // No tools (a summary): none sent, as APIs refuse an empty list.
          { model, messages, ...(tools.length > 0 ? { tools } : {}), stream: true, stream_options: { include_usage: true } },
          { signal },
        );
        for await (const chunk of stream) {
          responseId ||= chunk.id || fallbackId;
          const delta = chunk.choices[0]?.delta;
          if (delta?.content) {
            text += delta.content;
            onText(delta.content, responseId);
          }
          for (const call of delta?.tool_calls ?? []) {
            const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
            if (call.id) slot.id = call.id;
            if (call.function?.name) slot.name += call.function.name;
            if (call.function?.arguments) slot.arguments += call.function.arguments;
          }
          if (chunk.usage) {
            usage = {
              prompt_tokens: chunk.usage.prompt_tokens,
              completion_tokens: chunk.usage.completion_tokens,
              cache_read_tokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
              reasoning_tokens: chunk.usage.completion_tokens_details?.reasoning_tokens ?? 0,
            };
          }
        }
      } catch (error) {
        throw failureOf(OpenAIClass, error, signal);
      }
      const toolCalls = calls.filter(Boolean).map((call, i) => ({ ...call, id: call.id || `call_${responseId}_${i}` }));
      return { responseId: responseId || fallbackId, text, toolCalls, usage };
    },
  };
}
