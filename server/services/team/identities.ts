import type { Role } from '../../../src/contract/roles';
import type { DataAccess } from '../../authz/data-access';
import type { ApiKeysService } from './api-keys-service';
import { API_KEY_PREFIX } from './api-keys-service';
import { asSystem, type Caller } from '../../authz/caller';

const IDENTIFY = asSystem('identify a request');

/** Who an API key or a session cookie proves, if anyone: an active user, by key or by a cookie issued since their last sign-out. */
export class Identities {
  constructor(
    private readonly data: DataAccess,
    private readonly keys: ApiKeysService,
  ) {}

  /** Whether `key` could be an API key at all (anything else is the session key or wrong). */
  static isApiKey(key: string): boolean {
    return key.startsWith(API_KEY_PREFIX);
  }

  async #activeUser(userId: string) {
    const user = await this.data.as(IDENTIFY).users.get(userId);
    return user?.status === 'active' ? user : undefined;
  }

  /** `address`: where the request came from (a key's first use is recorded with it). */
  async byApiKey(key: string, address?: string): Promise<Caller | undefined> {
    const record = await this.keys.use(key, address);
    const user = record && (await this.#activeUser(record.user_id));
    if (!record || !user) return undefined;
    return { userId: user.id, role: user.role as Role, authType: 'api_key', apiKeyId: record.id, expiresAt: record.expires_at };
  }

  /** An active user by id: whom another instance asks for (with the session key). */
  async byUserId(userId: string): Promise<Caller | undefined> {
    const user = await this.#activeUser(userId);
    return user ? { userId: user.id, role: user.role as Role, authType: 'session_key' } : undefined;
  }

  /**
   * `issuedAtMs`: when the cookie was issued; a sign-out, disable, role or password change of the
   * user after that ends it (one in the same millisecond does not: the new cookie a password change
   * gives is issued then). `keyId`: the API key the browser signed in with, which must still be live.
   */
  async byCookie(userId: string, issuedAtMs: number, keyId?: number): Promise<Caller | undefined> {
    const user = await this.#activeUser(userId);
    if (!user) return undefined;
    if (user.sessions_since && issuedAtMs < new Date(user.sessions_since).getTime()) return undefined;
    if (keyId === undefined) return { userId: user.id, role: user.role as Role, authType: 'cookie' };
    const key = await this.keys.live(user.id, keyId);
    return key
      ? { userId: user.id, role: user.role as Role, authType: 'cookie', expiresAt: key.expires_at, signedInWithKey: key.id }
      : undefined;
  }
}
