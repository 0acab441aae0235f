import { isAdminRole, type Role } from '../../../src/contract/roles';
import { EVERY_USER, type UserScope } from '../../store/user-scope';

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
}

/** The session key's holder: scripts, recovery, and every request before there was a team. */
export const sessionKeyCaller: Caller = { userId: OWNER_ID, role: 'owner', authType: 'session_key' };

/** What the server does on its own (collecting events, ending leftovers): it sees everything, as the owner. */
export const SYSTEM: Caller = sessionKeyCaller;

/** The rows a caller sees: admins and owners everyone's, a member their own. */
export const scopeOf = (caller: Caller): UserScope => (isAdminRole(caller.role) ? EVERY_USER : caller.userId);
