import type { Role } from '../../../src/contract/roles';
import type { UsersStore } from '../../store/users-store';
import type { ApiKeysService } from './api-keys-service';
import { API_KEY_PREFIX } from './api-keys-service';
import type { Caller } from './caller';

/** Who an API key or a session cookie proves, if anyone: an active user, by key or by a cookie issued since their last sign-out. */
export class Identities {
  constructor(
    private readonly users: UsersStore,
    private readonly keys: ApiKeysService,
  ) {}

  /** Whether `key` could be an API key at all (anything else is the session key or wrong). */
  static isApiKey(key: string): boolean {
    return key.startsWith(API_KEY_PREFIX);
  }

  async byApiKey(key: string): Promise<Caller | undefined> {
    const record = await this.keys.use(key);
    const user = record && (await this.users.get(record.user_id));
    if (!record || user?.status !== 'active') return undefined;
    return { userId: user.id, role: user.role as Role, authType: 'api_key', apiKeyId: record.id };
  }

  /** An active user by id: whom another instance asks for (with the session key). */
  async byUserId(userId: string): Promise<Caller | undefined> {
    const user = await this.users.get(userId);
    return user?.status === 'active' ? { userId: user.id, role: user.role as Role, authType: 'session_key' } : undefined;
  }

  /** `issuedAtMs`: when the cookie was issued; a sign-out, disable, role or password change of the user after that ends it (one in the same millisecond does not: the new cookie a password change gives is issued then). */
  async byCookie(userId: string, issuedAtMs: number): Promise<Caller | undefined> {
    const user = await this.users.get(userId);
    if (user?.status !== 'active') return undefined;
    if (user.sessions_since && issuedAtMs < new Date(user.sessions_since).getTime()) return undefined;
    return { userId: user.id, role: user.role as Role, authType: 'cookie' };
  }
}
