import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { conversationIdParamsSchema } from '../../src/contract/conversations';
import { detailErrorSchema } from '../../src/contract/errors';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import {
  directoryListingSchema,
  gitChangesSchema,
  gitDiffSchema,
  workspaceFileQuerySchema,
  workspacePathQuerySchema,
} from '../../src/contract/workspace';
import type { ConversationWorkspaces } from '../services/conversations/conversation-workspaces';

/** 404: no such conversation or file; 409: its sandbox does not run (the detail says what to do), or no repository; 503: its agent server cannot. */
const refusals = { 403: detailErrorSchema, 404: detailErrorSchema, 409: detailErrorSchema, 503: detailErrorSchema };
/** Downloads are bytes, with no response schema (it would serialise them): their refusals, said. */
const DOWNLOAD_REFUSALS =
  'Refusals as `{"detail"}`: 403 (not the conversation’s owner), 404 (no such conversation or file), 409 (its sandbox does not run), 422 (a bad path, a link out of the workspace, a file that cannot be read), 503.';

/** A conversation's workspace (ours): its changes, a file's diff, its files, read through its sandbox's agent server. */
export function workspaceRoutes(workspaces: ConversationWorkspaces): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Conversations'];
    const params = conversationIdParamsSchema;
    const base = '/v1/app-conversations/:conversation_id/workspace';

    app.get(
      `${base}/changes`,
      {
        schema: {
          summary: "Files changed since the work started, as the SDK's git changes report them (ours)",
          tags,
          params,
          response: { 200: gitChangesSchema, ...refusals },
        },
      },
      (request) => workspaces.changes(request.caller, request.params.conversation_id),
    );

    app.get(
      `${base}/diff`,
      {
        schema: {
          summary: "One file's text where the work started and now (ours)",
          tags,
          params,
          querystring: workspaceFileQuerySchema,
          response: { 200: gitDiffSchema, ...refusals, 422: validationErrorBodySchema },
        },
      },
      (request) => workspaces.diff(request.caller, request.params.conversation_id, request.query.path),
    );

    app.get(
      `${base}/files`,
      {
        schema: {
          summary: "A directory's entries, directories first; `path` relative to the workspace, '' for its own (ours)",
          tags,
          params,
          querystring: workspacePathQuerySchema,
          response: { 200: directoryListingSchema, ...refusals, 422: validationErrorBodySchema },
        },
      },
      (request) => workspaces.list(request.caller, request.params.conversation_id, request.query.path),
    );

    app.get(
      `${base}/file`,
      {
        schema: {
          summary: 'One file of the workspace, as an attachment (ours)',
          description: DOWNLOAD_REFUSALS,
          tags,
          params,
          querystring: workspaceFileQuerySchema,
        },
      },
      async (request, reply) => {
        const download = await workspaces.file(request.caller, request.params.conversation_id, request.query.path);
        return reply.headers(download.headers).send(download.stream);
      },
    );

    app.get(
      `${base}/archive`,
      { schema: { summary: 'The whole workspace as a gzipped tar (ours)', description: DOWNLOAD_REFUSALS, tags, params } },
      async (request, reply) => {
        const download = await workspaces.archive(request.caller, request.params.conversation_id);
        return reply.headers(download.headers).send(download.stream);
      },
    );
  };
}
