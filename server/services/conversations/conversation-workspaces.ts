import { msg } from '@lingui/core/macro';
import type { Caller } from '../../authz/caller';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type * as z from 'zod/mini';
import { directoryListingSchema, gitChangesSchema, gitDiffSchema } from '../../../src/contract/workspace';
import { SESSION_KEY_HEADER } from '../../session-key';
import { Conflict, Invalid, NotFound, Unavailable, verbatim } from '../../domain-errors';
import type { SandboxService } from '../sandboxes/sandbox-service';
import { type AgentConversations, type AgentEndpoint, refusal } from './agent-conversations';

const WORKSPACE_TIMEOUT_MS = 30_000;
/** The most a workspace's changes, a diff or a listing may take. */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

/** A download as the agent server sends it: its bytes as they come, and what to call them. */
export interface WorkspaceDownload {
  stream: Readable;
  headers: Record<string, string>;
}

/**
 * A conversation's workspace, read through its sandbox's agent server: git changes and diffs (the
 * SDK's routes), a directory's entries, a file, the whole workspace as an archive. Paths are
 * relative to the workspace (the contract refuses `..`); the agent server gets them absolute.
 */
export class ConversationWorkspaces {
  constructor(
    private readonly agents: AgentConversations,
    private readonly sandboxes: SandboxService,
  ) {}

  /**
   * The agent server's response to a GET of `route` with the workspace path `relative` (absolute
   * there). A sandbox of another server instance is read through that instance's `ourRoute`
   * (JSON only: `undefined` for a download, which is refused then).
   */
  async #get(
    caller: Caller,
    id: string,
    route: string,
    relative: string,
    ourRoute: string | undefined,
  ): Promise<Response | { forwarded: unknown }> {
    const conversation = await this.agents.allowed(caller, id, 'workspace');
    const { record } = conversation;
    const instance = await conversation.elsewhere();
    if (instance && ourRoute === undefined) {
      throw new Unavailable(msg`This conversation's sandbox runs on another server instance: download from that one`);
    }
    if (instance) {
      return {
        forwarded: await this.sandboxes.forward(caller, instance, 'GET', `/v1/app-conversations/${record.id}/workspace/${ourRoute}`),
      };
    }
    const endpoint = await conversation.endpoint();
    if (!record.working_dir)
      throw new Conflict(msg`Conversation ${record.id}'s workspace is not recorded: it started before workspaces were`);
    return fetchAgent(endpoint, `${route}/${encodeURIComponent(path.posix.join(record.working_dir, relative))}`);
  }

  async #json<S extends z.ZodMiniType>(
    caller: Caller,
    id: string,
    route: string,
    relative: string,
    ourRoute: string,
    schema: S,
  ): Promise<z.output<S>> {
    const response = await this.#get(caller, id, route, relative, ourRoute);
    if (!(response instanceof Response)) return schema.parse(response.forwarded);
    await refuseFailure(response, relative !== '');
    const parsed = schema.safeParse(await boundedJson(response));
    if (!parsed.success) throw new Unavailable(msg`The sandbox's agent server sent the workspace in a shape it does not have`);
    return parsed.data;
  }

  /** Every file that differs from where the work started, by path. */
  changes(caller: Caller, id: string) {
    return this.#json(caller, id, '/api/git/changes', '', 'changes', gitChangesSchema);
  }

  /** One file's text where the work started and now. */
  diff(caller: Caller, id: string, file: string) {
    return this.#json(caller, id, '/api/git/diff', file, `diff?path=${encodeURIComponent(file)}`, gitDiffSchema);
  }

  /** A directory's entries (`''`: the workspace's own). */
  list(caller: Caller, id: string, dir: string) {
    return this.#json(caller, id, '/api/file/list', dir, `files?path=${encodeURIComponent(dir)}`, directoryListingSchema);
  }

  /** One file, as an attachment. */
  file(caller: Caller, id: string, file: string): Promise<WorkspaceDownload> {
    return this.#download(caller, id, '/api/file/download', file, path.posix.basename(file), 'application/octet-stream');
  }

  /** The whole workspace as a gzipped tar. */
  archive(caller: Caller, id: string): Promise<WorkspaceDownload> {
    return this.#download(caller, id, '/api/file/archive', '', 'workspace.tar.gz', 'application/gzip');
  }

  /**
   * The agent server's bytes, with headers of ours: what they are called and their type come from
   * what was asked for, never from the sandbox.
   */
  async #download(caller: Caller, id: string, route: string, relative: string, name: string, type: string): Promise<WorkspaceDownload> {
    const response = (await this.#get(caller, id, route, relative, undefined)) as Response;
    await refuseFailure(response, relative !== '');
    const headers: Record<string, string> = {
      'content-type': type,
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
      'x-content-type-options': 'nosniff',
    };
    const length = response.headers.get('content-length');
    if (length && /^\d+$/.test(length)) headers['content-length'] = length;
    return { stream: Readable.fromWeb(response.body as WebReadableStream), headers };
  }
}

/**
 * GETs `agentPath` of an agent server. The timeout covers the response's head only: a download
 * may take as long as its size needs.
 */
async function fetchAgent(endpoint: AgentEndpoint, agentPath: string): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no response within ${WORKSPACE_TIMEOUT_MS / 1000} s`)), WORKSPACE_TIMEOUT_MS);
  try {
    return await fetch(`${endpoint.url}${agentPath}`, { headers: { [SESSION_KEY_HEADER]: endpoint.key }, signal: controller.signal });
  } catch (error) {
    const reason = controller.signal.aborted ? controller.signal.reason : error;
    throw new Unavailable(msg`The sandbox's agent server did not respond: ${reason instanceof Error ? reason.message : String(reason)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** A JSON body of the agent server, read up to MAX_JSON_BYTES: it is sandbox code, and may send without end. */
async function boundedJson(response: Response): Promise<unknown> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) {
      await response.body?.cancel();
      throw new Unavailable(msg`The sandbox's agent server sent more than ${MAX_JSON_BYTES} bytes for the workspace`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Unavailable(msg`The sandbox's agent server sent no JSON for the workspace`);
  }
}

/**
 * A refusal of the agent server as ours: a missing file is NotFound, a link out of the workspace
 * or a file that cannot be read is Invalid at the `path` asked for (a Conflict for the workspace
 * itself), a directory that is no repository a Conflict.
 */
async function refuseFailure(response: Response, pathAsked: boolean): Promise<void> {
  if (response.ok) return;
  if (response.status === 404 || response.status === 422) {
    const body = (await boundedJson(response).catch(() => ({}))) as { detail?: unknown };
    const detail = typeof body.detail === 'string' ? body.detail : undefined;
    const theirs = detail === undefined ? undefined : verbatim(detail);
    if (response.status === 422 && pathAsked) throw new Invalid(['path'], theirs ?? msg`This path of the workspace cannot be read`);
    if (response.status === 422) throw new Conflict(theirs ?? msg`The workspace cannot be read`);
    throw new NotFound(theirs ?? msg`Not found in the workspace`);
  }
  throw await refusal(response, (detail) => msg`The sandbox's agent server could not read the workspace: ${detail}`);
}
