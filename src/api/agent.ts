import * as z from 'zod/mini';
import type { Confirmation } from '../contract/events';
import type { SendMessageRequest } from '../contract/conversations';
import { apiRequest } from './client';

/*
 * What a person asks of a conversation's agent (our extensions of `/api/v1/app-conversations`,
 * forwarded to its agent server). A 409 says what the state does not allow and what to do (the
 * sandbox is paused: resume it); its `detail` is the error's message.
 */

/** The agent server responds `{success}`; anything else the app server adds is kept. */
const acceptedSchema = z.looseObject({ success: z.optional(z.boolean()) });

const agentPath = (conversationId: string, action: string) => `/api/v1/app-conversations/${encodeURIComponent(conversationId)}/${action}`;

/** What a person writes to the agent: text, and images as data URLs (sent as SDK `ImageContent`). */
export interface OutgoingMessage {
  text: string;
  images: readonly string[];
}

/** Sends a user message and runs the agent on it. */
export function sendMessage(conversationId: string, { text, images }: OutgoingMessage) {
  const request: SendMessageRequest = {
    role: 'user',
    content: [
      { type: 'text', text, cache_prompt: false },
      ...(images.length > 0 ? [{ type: 'image' as const, image_urls: [...images], cache_prompt: false }] : []),
    ],
    run: true,
  };
  return apiRequest(agentPath(conversationId, 'send-message'), { method: 'POST', body: request, schema: acceptedSchema });
}

export function pauseAgent(conversationId: string) {
  return apiRequest(agentPath(conversationId, 'pause'), { method: 'POST', body: {}, schema: acceptedSchema });
}

export function runAgent(conversationId: string) {
  return apiRequest(agentPath(conversationId, 'run'), { method: 'POST', body: {}, schema: acceptedSchema });
}

/** Approves or rejects the actions waiting for confirmation. */
export function confirmActions(conversationId: string, response: Confirmation) {
  const body: Confirmation = { accept: response.accept };
  if (response.reason) body.reason = response.reason;
  return apiRequest(agentPath(conversationId, 'confirm'), { method: 'POST', body, schema: acceptedSchema });
}
