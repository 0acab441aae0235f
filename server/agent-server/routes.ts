import * as z from 'zod/mini';
import { agentStartConversationSchema } from '../../src/contract/agent-server';
import { conversationIdSchema } from '../../src/contract/conversations';
import type { Conversations } from './conversations';
import { HttpAnswer, parse, Router } from './router';

export interface AgentServerState {
  version: string;
  startedAt: number;
  conversations: Conversations;
}

const idsQuery = z.object({ ids: z.array(conversationIdSchema) });

/** The agent server's API behind the session key, as the agent SDK's server shapes it. */
export function agentRoutes({ version, startedAt, conversations }: AgentServerState): Router {
  return new Router()
    .add('GET', '/server_info', () => ({
      body: { version, uptime_seconds: Math.round((Date.now() - startedAt) / 1000), working_dir: process.cwd() },
    }))
    .add('POST', '/api/conversations', ({ body }) => ({ body: conversations.start(parse(agentStartConversationSchema, body, 'body')) }))
    .add('GET', '/api/conversations', ({ query }) => {
      if (!query.has('ids')) return { body: conversations.all() };
      const { ids } = parse(idsQuery, { ids: query.getAll('ids') }, 'query');
      return { body: ids.map((id) => conversations.get(id) ?? null) };
    })
    .add('GET', '/api/conversations/:id', ({ params }) => {
      const conversation = conversations.get(params.id ?? '');
      if (!conversation) throw new HttpAnswer(404, { detail: 'Not Found' });
      return { body: conversation };
    });
}
