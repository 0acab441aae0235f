import type { Role } from '../../src/contract/roles';
import type { SystemTask } from './policy';

/** The user the session key belongs to: everything stored before there were users is theirs. */
export const OWNER_ID = 'default';

/** How a request showed who it is. */
export type AuthType = 'session_key' | 'api_key' | 'cookie';

/** Who a request is: resolved once per request (server/http/auth.ts) and handed to each service call. */
export interface Caller {
  userId: string;
  role: Role;
  authType: AuthType;
  /** The API key it came with (`authType` api_key). */
  apiKeyId?: number;
  /**
   * When what it signed in with ends: its API key's expiry, or that of the key its browser signed
   * in with; `null` or absent: never. A key it makes lives no longer.
   */
  expiresAt?: string | null;
  /** The API key its browser session was signed in with (`authType` cookie): the session lives no longer than the key. */
  signedInWithKey?: number;
  /** The client's address (as the HTTP layer sees it), for the audit log. */
  address?: string;
}

/** The session key's holder: scripts, and every request before there was a team. */
export const sessionKeyCaller: Caller = { userId: OWNER_ID, role: 'owner', authType: 'session_key' };

/**
 * Work the server does on its own (collecting events, recovering sandboxes after a restart),
 * named for what it does: it may do only what its task is granted in the policy (`SYSTEM_TASKS`),
 * nothing more, whoever's request set it off.
 */
export interface SystemSubject {
  readonly task: SystemTask;
  /** Whose data it acts on, for a task granted one user's ('own'); '' for a task about everyone's. */
  readonly userId: string;
}

/** Whoever a read or an action is done for: a caller, or the server at one of its tasks. */
export type Subject = Caller | SystemSubject;

/** The server at `task`, for `forUserId`'s data when the task is granted one user's. */
export const asSystem = (task: SystemTask, forUserId = ''): SystemSubject => ({ task, userId: forUserId });

export const isSystem = (subject: Subject): subject is SystemSubject => 'task' in subject;
