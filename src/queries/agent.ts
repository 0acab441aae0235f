import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import { confirmActions, type OutgoingMessage, pauseAgent, runAgent, sendMessage } from '../api/agent';
import type { Confirmation } from '../contract/events';
import { conversationKeys } from './conversations';

/*
 * What a person asks of a conversation's agent. Each reads the conversation again when done,
 * so its execution status shows what the agent does now (the event stream updates it too).
 */

const refresh = (queryClient: QueryClient, conversationId: string) =>
  queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) });

export const sendMessageMutation = (queryClient: QueryClient, conversationId: string) =>
  mutationOptions({
    mutationFn: (message: OutgoingMessage) => sendMessage(conversationId, message),
    onSettled: () => refresh(queryClient, conversationId),
  });

export const pauseAgentMutation = (queryClient: QueryClient, conversationId: string) =>
  mutationOptions({ mutationFn: () => pauseAgent(conversationId), onSettled: () => refresh(queryClient, conversationId) });

export const runAgentMutation = (queryClient: QueryClient, conversationId: string) =>
  mutationOptions({ mutationFn: () => runAgent(conversationId), onSettled: () => refresh(queryClient, conversationId) });

export const confirmActionsMutation = (queryClient: QueryClient, conversationId: string) =>
  mutationOptions({
    mutationFn: (confirmation: Confirmation) => confirmActions(conversationId, confirmation),
    onSettled: () => refresh(queryClient, conversationId),
  });
