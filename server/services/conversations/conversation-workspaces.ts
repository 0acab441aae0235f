import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type * as z from 'zod/mini';
import { directoryListingSchema, gitChangesSchema, gitDiffSchema } from '../../../src/contract/workspace';
import { SESSION_KEY_HEADER } from '../../session-key';
import { Conflict, NotFound, Unavailable } from '../domain-errors';
import type { SandboxService } from '../sandboxes/sandbox-service';
import { type AgentConversations, type AgentEndpoint, refusal } from './agent-conversations';

const WORKSPACE_TIMEOUT_MS = 30_000;

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
  async #get(id: string, route: string, relative: string, ourRoute: string | undefined): Promise<Response | { forwarded: unknown }> {
    const stored = await this.agents.stored(id);
    const owner = await this.sandboxes.ownerElsewhere(stored.sandbox_id);
    if (owner && ourRoute === undefined) {
      throw new Unavailable("This conversation's sandbox runs on another server instance: download from that one");
    }
    if (owner) return { forwarded: await this.sandboxes.forward(owner, 'GET', `/v1/app-conversations/${stored.id}/workspace/${ourRoute}`) };
    const { record, endpoint } = await this.agents.running(id);
    if (!record.working_dir) throw new Conflict(`Conversation ${record.id}'s workspace is not recorded: it started before workspaces were`);
    return fetchAgent(endpoint, `${route}/${encodeURIComponent(path.posix.join(record.working_dir, relative))}`);
  }

  async #json<S extends z.ZodMiniType>(id: string, route: string, relative: string, ourRoute: string, schema: S): Promise<z.output<S>> {
    const response = await this.#get(id, route, relative, ourRoute);
    if (!(response instanceof Response)) return schema.parse(response.forwarded);
    await refuseFailure(response);
    return schema.parse(await response.json());
  }

  /** Every file that differs from where the work started, by path. */
  changes(id: string) {
    return this.#json(id, '/api/git/changes', '', 'changes', gitChangesSchema);
  }

  /** One file's text where the work started and now. */
  diff(id: string, file: string) {
    return this.#json(id, '/api/git/diff', file, `diff?path=${encodeURIComponent(file)}`, gitDiffSchema);
  }

  /** A directory's entries (`''`: the workspace's own). */
  list(id: string, dir: string) {
    return this.#json(id, '/api/file/list', dir, `files?path=${encodeURIComponent(dir)}`, directoryListingSchema);
  }

  /** One file, as an attachment. */
  file(id: string, file: string): Promise<WorkspaceDownload> {
    return this.#download(id, '/api/file/download', file);
  }

  /** The whole workspace as a gzipped tar. */
  archive(id: string): Promise<WorkspaceDownload> {
    return this.#download(id, '/api/file/archive', '');
  }

  async #download(id: string, route: string, relative: string): Promise<WorkspaceDownload> {
    const response = (await this.#get(id, route, relative, undefined)) as Response;
    await refuseFailure(response);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'content-length', 'content-disposition']) {
      const value = response.headers.get(name);
      if (value) headers[name] = value;
    }
    return { stream: Readable.fromWeb(response.body as WebReadableStream), headers };
  }
}

async function fetchAgent(endpoint: AgentEndpoint, agentPath: string): Promise<Response> {
  try {
    return await fetch(`${endpoint.url}${agentPath}`, {
      headers: { [SESSION_KEY_HEADER]: endpoint.key },
      signal: AbortSignal.timeout(WORKSPACE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new Unavailable(`The sandbox's agent server did not respond: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A refusal of the agent server as ours: a missing file is NotFound, a directory that is no repository a Conflict. */
async function refuseFailure(response: Response): Promise<void> {
  if (response.ok) return;
  if (response.status === 404) {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
    throw new NotFound(typeof body.detail === 'string' ? body.detail : 'Not found in the workspace');
  }
  throw await refusal(response, 'could not read the workspace');
}
