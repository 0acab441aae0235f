import { msg } from '@lingui/core/macro';
import { createHash, randomInt } from 'node:crypto';
import type { ApiKey, ApiKeyCreate, CreatedApiKey } from '../../../src/contract/team';
import { type Clock, systemClock } from '../../clock';
import type { ApiKeyRecord } from '../../store/api-keys-store';
import { Invalid, NotFound } from '../../domain-errors';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { changesOf } from '../audit/audit-diff';
import type { BrowserSessions } from '../sessions/browser-sessions';

/** What every key starts with (as OpenHands' do), so a leaked one is recognisable to secret scanners. */
export const API_KEY_PREFIX = 'sk-oh-';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** How many characters of a key a list shows. */
const SHOWN = API_KEY_PREFIX.length + 4;
/** `last_used_at` is written at most this often per key: a script's every request need not write the database. */
const TOUCH_EVERY_MS = 60_000;

const IDENTIFY = asSystem('identify a request');

export const apiKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

const newKey = () => API_KEY_PREFIX + Array.from({ length: 32 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

const toApiKey = (record: ApiKeyRecord): ApiKey => ({
  id: record.id,
  name: record.name,
  prefix: record.prefix,
  created_at: record.created_at,
  last_used_at: record.last_used_at,
  expires_at: record.expires_at,
});

/** Each user's API keys (`/api/keys`): shown once when made, stored as a hash, used as the user. */
export class ApiKeysService {
  constructor(
    private readonly data: DataAccess,
    private readonly clock: Clock = systemClock,
    private readonly audit: AuditRecorder = NO_AUDIT,
    /** The browser sessions signed in with a key end with it. */
    private readonly sessions?: Pick<BrowserSessions, 'end'>,
  ) {}

  async list(caller: Caller): Promise<ApiKey[]> {
    return (await this.data.as(caller).apiKeys.list(caller.userId)).map(toApiKey);
  }

  /**
   * A new key for the caller. One made with a key that expires (or in a browser signed in with
   * one) expires no later: without an expiry it gets that one, a later one is refused.
   */
  async create(caller: Caller, request: ApiKeyCreate): Promise<CreatedApiKey> {
    const now = this.clock();
    const bound = caller.expiresAt ? new Date(caller.expiresAt) : null;
    const expires = request.expires_at ? new Date(request.expires_at) : bound;
    if (expires && expires <= now) throw new Invalid(['expires_at'], msg`Expiration date cannot be in the past`, request.expires_at);
    if (bound && expires && expires > bound) {
      throw new Invalid(
        ['expires_at'],
        msg`The key you signed in with expires ${bound.toISOString()}: a key it makes cannot outlive it`,
        request.expires_at,
      );
    }
    const key = newKey();
    const record = await this.data.as(caller).apiKeys.insert({
      user_id: caller.userId,
      name: request.name || null,
      prefix: key.slice(0, SHOWN),
      key_hash: apiKeyHash(key),
      created_at: now.toISOString(),
      expires_at: expires?.toISOString() ?? null,
    });
    await this.audit.record(caller, {
      action: 'create',
      resourceType: 'api_key',
      resourceId: String(record.id),
      resourceTarget: record.name ?? record.prefix,
      diff: changesOf({}, { name: record.name, prefix: record.prefix, expires_at: record.expires_at }),
    });
    return { ...toApiKey(record), key };
  }

  async delete(caller: Caller, id: number): Promise<void> {
    const keys = this.data.as(caller).apiKeys;
    const record = (await keys.list(caller.userId)).find((key) => key.id === id);
    if (!(await keys.delete(caller.userId, id))) throw new NotFound(msg`API key not found`);
    await this.audit.record(caller, {
      action: 'delete',
      resourceType: 'api_key',
      resourceId: String(id),
      resourceTarget: record?.name ?? record?.prefix ?? null,
      diff: changesOf({ name: record?.name ?? null, prefix: record?.prefix ?? null }, {}),
    });
    await this.sessions?.end(caller, { userId: caller.userId, keyId: id }, 'The API key it was signed in with was deleted');
  }

  #live(record: ApiKeyRecord | undefined): record is ApiKeyRecord {
    return record !== undefined && !(record.expires_at && new Date(record.expires_at) <= this.clock());
  }

  /**
   * The key's record when it is live (not expired); its use is noted, and its first use (from
   * `address`) is in the audit log: the write that notes it, one key's first only, says so.
   */
  async use(key: string, address?: string): Promise<ApiKeyRecord | undefined> {
    const keys = this.data.as(IDENTIFY).apiKeys;
    const record = await keys.byHash(apiKeyHash(key));
    if (!this.#live(record)) return undefined;
    const now = this.clock().toISOString();
    if (!record.last_used_at) {
      if (await keys.touchFirst(record.id, now))
        await this.audit.record(
          { userId: record.user_id, method: 'api_key', apiKeyId: record.id, address },
          {
            action: 'first_use',
            resourceType: 'api_key',
            resourceId: String(record.id),
            resourceTarget: record.name ?? record.prefix,
            diff: changesOf({ last_used_at: null }, { last_used_at: now }),
          },
        );
    } else if (Date.parse(now) - Date.parse(record.last_used_at) > TOUCH_EVERY_MS) await keys.touch(record.id, now);
    return record;
  }

  /** Key `id` of user `userId` when it is live: a browser signed in with it stays signed in only so long. */
  async live(userId: string, id: number): Promise<ApiKeyRecord | undefined> {
    const record = await this.data.as(IDENTIFY).apiKeys.byId(id);
    return this.#live(record) && record.user_id === userId ? record : undefined;
  }
}
