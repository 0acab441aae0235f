import { createHash, randomInt } from 'node:crypto';
import type { ApiKey, ApiKeyCreate, CreatedApiKey } from '../../../src/contract/team';
import { type Clock, systemClock } from '../../clock';
import type { ApiKeyRecord, ApiKeysStore } from '../../store/api-keys-store';
import { Invalid, NotFound } from '../domain-errors';
import type { Caller } from './caller';

/** What every key starts with (as OpenHands' do), so a leaked one is recognisable to secret scanners. */
export const API_KEY_PREFIX = 'sk-oh-';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** How many characters of a key a list shows. */
const SHOWN = API_KEY_PREFIX.length + 4;
/** `last_used_at` is written at most this often per key: a script's every request need not write the database. */
const TOUCH_EVERY_MS = 60_000;

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
    private readonly store: ApiKeysStore,
    private readonly clock: Clock = systemClock,
  ) {}

  async list(caller: Caller): Promise<ApiKey[]> {
    return (await this.store.list(caller.userId)).map(toApiKey);
  }

  async create(caller: Caller, request: ApiKeyCreate): Promise<CreatedApiKey> {
    const now = this.clock();
    const expires = request.expires_at ? new Date(request.expires_at) : null;
    if (expires && expires <= now) throw new Invalid(['expires_at'], 'Expiration date cannot be in the past', request.expires_at);
    const key = newKey();
    const record = await this.store.insert({
      user_id: caller.userId,
      name: request.name || null,
      prefix: key.slice(0, SHOWN),
      key_hash: apiKeyHash(key),
      created_at: now.toISOString(),
      expires_at: expires?.toISOString() ?? null,
    });
    return { ...toApiKey(record), key };
  }

  async delete(caller: Caller, id: number): Promise<void> {
    if (!(await this.store.delete(caller.userId, id))) throw new NotFound('API key not found');
  }

  /** The key's record when it is live (not expired); its use is noted. */
  async use(key: string): Promise<ApiKeyRecord | undefined> {
    const record = await this.store.byHash(apiKeyHash(key));
    const now = this.clock();
    if (!record || (record.expires_at && new Date(record.expires_at) <= now)) return undefined;
    if (!record.last_used_at || now.getTime() - new Date(record.last_used_at).getTime() > TOUCH_EVERY_MS) {
      await this.store.touch(record.id, now.toISOString());
    }
    return record;
  }
}
