import * as z from 'zod/mini';
import { agentStartConversationSchema, SANDBOX_RESUMED_PATH, updateConversationSchema } from './contract';
import { conversationIdSchema, sendMessageRequestSchema } from '../../src/contract/conversations';
import { confirmationResponseSchema } from '../../src/contract/events';
import { type Conversation, ConversationConflict } from './conversation';
import type { Conversations } from './conversations';
import { eventSearchQuerySchema, searchEvents } from './event-search';
import { HttpResponseError, parse, type Request, type RouteResponse, Router } from './router';
import { openHandsWorkspacePath } from './openhands-paths';
import { resolveInWorkspace } from './workspace-paths';
import * as files from './workspace-files';
import { gitChanges, gitDiff } from './workspace-git';
import { WorkspaceRefusal } from './workspace-refusal';

export interface AgentServerState {
  version: string;
  startedAt: number;
  conversations: Conversations;
  /** The user its sandbox was started for (`AGENT_CONSOLE_USER_ID`), when the app server said. */
  owner: string | null;
}

const idsQuery = z.object({ ids: z.array(conversationIdSchema) });
/**
 * For a start that brings a conversation's history (it goes on in a new sandbox: its task and
 * newest events, within CONTINUED_HISTORY_BYTES), or a message its images.
 */
const MAX_LARGE_BODY = 32 * 1024 * 1024;
const SUCCESS = { body: { success: true } };

/** The agent server's API behind the session key, as the agent SDK's server shapes it. */
export function agentRoutes({ version, startedAt, conversations, owner }: AgentServerState): Router {
  const conversationOf = ({ params }: Request): Conversation => {
    const id = conversationIdSchema.safeParse(params.id ?? '');
    const conversation = id.success ? conversations.get(id.data) : undefined;
    if (!conversation) throw new HttpResponseError(404, { detail: 'Not Found' });
    return conversation;
  };
  /** A state conflict as a 409 that says what to do. */
  const acting = (act: () => void) => {
    try {
      act();
    } catch (error) {
      if (error instanceof ConversationConflict) throw new HttpResponseError(409, { detail: error.message });
      throw error;
    }
    return SUCCESS;
  };

  /**
   * A path of a request, as a file of a workspace of this sandbox (see openHandsWorkspacePath),
   * its links resolved without leaving it (see resolveInWorkspace).
   */
  const inWorkspace = (raw: string | undefined, { orHome = false } = {}) => {
    const workspaces = conversations.all().map((conversation) => conversation.info.workspace.working_dir);
    // A file moves in and out of the sandbox anywhere in its home too: `/workspace/<name>` in a container.
    const roots = orHome && process.env.HOME ? [...workspaces, process.env.HOME] : workspaces;
    return resolveInWorkspace(openHandsWorkspacePath(files.absolute(raw ?? ''), workspaces.at(-1)), roots);
  };

  return (
    new Router()
      .add('GET', '/server_info', () => ({
        body: { version, uptime_seconds: Math.round((Date.now() - startedAt) / 1000), working_dir: process.cwd(), owner },
      }))
      .add(
        'POST',
        '/api/conversations',
        async ({ body }) => ({ body: await conversations.start(parse(agentStartConversationSchema, body, 'body')) }),
        { maxBody: MAX_LARGE_BODY },
      )
      .add('GET', '/api/conversations', ({ query }) => {
        if (!query.has('ids')) return { body: conversations.all().map((conversation) => conversation.info) };
        const { ids } = parse(idsQuery, { ids: query.getAll('ids') }, 'query');
        return { body: ids.map((id) => conversations.get(id)?.info ?? null) };
      })
      .add('GET', '/api/conversations/:id', (request) => ({ body: conversationOf(request).info }))
      .add('PATCH', '/api/conversations/:id', (request) => {
        const conversation = conversationOf(request);
        conversation.setTitle(parse(updateConversationSchema, request.body, 'body').title);
        return SUCCESS;
      })
      .add('GET', '/api/conversations/:id/events/search', (request) => {
        const conversation = conversationOf(request);
        const query = parse(eventSearchQuerySchema, Object.fromEntries(request.query), 'query');
        return { body: searchEvents(conversation.events(), query) };
      })
      .add(
        'POST',
        '/api/conversations/:id/events',
        (request) => {
          const conversation = conversationOf(request);
          const message = parse(sendMessageRequestSchema, request.body, 'body');
          return acting(() => conversation.sendMessage(message));
        },
        { maxBody: MAX_LARGE_BODY },
      )
      .add('POST', '/api/conversations/:id/events/respond_to_confirmation', (request) => {
        const conversation = conversationOf(request);
        const { accept, reason } = parse(confirmationResponseSchema, request.body, 'body');
        return acting(() => conversation.respondToConfirmation(accept, reason));
      })
      .add('POST', '/api/conversations/:id/pause', (request) => acting(() => conversationOf(request).pause()))
      .add('POST', '/api/conversations/:id/run', (request) => acting(() => conversationOf(request).run()))
      .add('GET', '/api/git/changes/*path', ({ params }) =>
        workspaceResponse(async () => ({ body: await gitChanges(await inWorkspace(params.path)) })),
      )
      .add('GET', '/api/git/diff/*path', ({ params }) =>
        workspaceResponse(async () => ({ body: await gitDiff(await inWorkspace(params.path)) })),
      )
      .add('GET', '/api/file/download/*path', ({ params }) =>
        workspaceResponse(async () => files.download(await inWorkspace(params.path, { orHome: true }))),
      )
      .add(
        'POST',
        '/api/file/upload/*path',
        ({ params, raw }) =>
          workspaceResponse(async () => {
            await files.upload(await inWorkspace(params.path, { orHome: true }), raw);
            return SUCCESS;
          }),
        { rawBody: true },
      )
      // Ours: the SDK has neither a listing nor an archive.
      .add('GET', '/api/file/list/*path', ({ params }) =>
        workspaceResponse(async () => ({ body: await files.list(await inWorkspace(params.path)) })),
      )
      .add('GET', '/api/file/archive/*path', ({ params }) => workspaceResponse(async () => files.archive(await inWorkspace(params.path))))
      .add('POST', SANDBOX_RESUMED_PATH, () => {
        conversations.sandboxResumed();
        return SUCCESS;
      })
  );
}

/** A workspace route's response; its refusals as the SDK words them (`{"detail"}`). */
async function workspaceResponse(respond: () => Promise<RouteResponse>): Promise<RouteResponse> {
  try {
    return await respond();
  } catch (error) {
    if (error instanceof WorkspaceRefusal) throw new HttpResponseError(error.status, { detail: error.message });
    throw error;
  }
}
