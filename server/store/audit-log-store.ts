import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from './database';
import { lockForUpdate } from './dialect';
import type { AuditLogTable } from './schema';
import { AUDIT_GENESIS_HASH, type ChainAnchor, entryHash } from './audit-chain';

export type AuditLogRecord = Selectable<AuditLogTable>;

/** What a caller writes; the store numbers, stamps and links it. */
export type AuditEntryInput = Omit<AuditLogRecord, 'seq' | 'id' | 'prev_hash' | 'hash' | 'user_name' | 'time' | 'api_key_name'> & {
  /** The actor's name; looked up from `user_id` when absent. */
  user_name?: string | null;
  /** The API key the actor came with (or signed their browser in with), whose name is written. */
  api_key_id?: number;
};

/** The row of `server_meta` that holds the last pruned entry's seq and hash: the chain starts after it. */
const ANCHOR_KEY = 'audit_log_anchor';
/** Serialises appends and prunes across connections and instances (see lockForUpdate). */
const CHAIN_LOCK = 'audit_log chain';

export interface AuditLogQuery {
  userIds?: string[];
  username?: string;
  action?: string;
  resourceType?: string;
  resourceId?: string;
  result?: string;
  from?: string;
  to?: string;
}

/**
 * The audit log: appended to one entry at a time (under a lock, so several instances write one
 * chain), read in pages newest first, pruned from its oldest end. Nothing updates an entry.
 */
export class AuditLogStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Appends `entry` after the chain's last entry, stamped with the time it is written. */
  async append(entry: AuditEntryInput): Promise<AuditLogRecord> {
    return this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, CHAIN_LOCK);
      const last = await trx.selectFrom('audit_log').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
      const before = last ? { seq: Number(last.seq), hash: last.hash } : await readAnchor(trx);
      let userName = entry.user_name;
      if (userName === undefined && entry.user_id) {
        const user = await trx.selectFrom('users').select(['email', 'name']).where('id', '=', entry.user_id).executeTakeFirst();
        userName = user?.email ?? user?.name ?? null;
      }
      const { api_key_id: apiKeyId, ...fields } = entry;
      const key =
        apiKeyId === undefined
          ? undefined
          : await trx.selectFrom('api_keys').select(['name', 'prefix']).where('id', '=', apiKeyId).executeTakeFirst();
      const unhashed = {
        ...fields,
        user_name: userName ?? null,
        api_key_name: key ? (key.name ?? `${key.prefix}…`) : null,
        seq: before.seq + 1,
        id: randomUUID(),
        time: this.now().toISOString(),
        prev_hash: before.hash,
      };
      const record = { ...unhashed, hash: entryHash(unhashed) };
      await trx.insertInto('audit_log').values(record).execute();
      return record;
    });
  }

  /** Entries matching `query`, newest first. */
  async page(query: AuditLogQuery, offset: number, limit: number): Promise<AuditLogRecord[]> {
    const rows = await this.#filtered(query)
      .selectAll()
      .orderBy('time', 'desc')
      .orderBy('seq', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  async count(query: AuditLogQuery): Promise<number> {
    const row = await this.#filtered(query)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  #filtered(query: AuditLogQuery) {
    let q = this.db.selectFrom('audit_log');
    if (query.username !== undefined) {
      const name = query.username.toLowerCase();
      q = q.where((eb) => eb.or([eb('user_id', '=', query.username!), eb(eb.fn('lower', ['user_name']), '=', name)]));
    }
    if (query.action) q = q.where('action', '=', query.action);
    if (query.resourceType) q = q.where('resource_type', '=', query.resourceType);
    if (query.resourceId) q = q.where('resource_id', '=', query.resourceId);
    if (query.result) q = q.where('result', '=', query.result);
    if (query.from) q = q.where('time', '>=', query.from);
    if (query.to) q = q.where('time', '<=', query.to);
    return q;
  }

  /** Entries in chain order from `afterSeq` on, `limit` at a time (verification reads the whole chain so). */
  async chainFrom(afterSeq: number, limit: number): Promise<AuditLogRecord[]> {
    const rows = await this.db.selectFrom('audit_log').selectAll().where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  anchor(): Promise<ChainAnchor> {
    return readAnchor(this.db);
  }

  /**
   * Removes the entries written before `before` (the chain's oldest end, up to the last of them)
   * and keeps the last removed one's seq and hash as the anchor the chain then starts after.
   * Returns how many went, from which seq and over which times, and the anchor; or undefined when
   * none was that old.
   */
  async prune(
    before: string,
  ): Promise<{ removed: number; fromSeq: number; oldest: string; newest: string; anchor: ChainAnchor } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, CHAIN_LOCK);
      const last = await trx
        .selectFrom('audit_log')
        .select(['seq', 'hash'])
        .where('time', '<', before)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!last) return undefined;
      const anchor = { seq: Number(last.seq), hash: last.hash };
      const range = await trx
        .selectFrom('audit_log')
        .select((eb) => [eb.fn.min('seq').as('fromSeq'), eb.fn.min('time').as('oldest'), eb.fn.max('time').as('newest')])
        .where('seq', '<=', anchor.seq)
        .executeTakeFirstOrThrow();
      const result = await trx.deleteFrom('audit_log').where('seq', '<=', anchor.seq).executeTakeFirst();
      const value = JSON.stringify(anchor);
      await trx
        .insertInto('server_meta')
        .values({ key: ANCHOR_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
      return {
        removed: Number(result.numDeletedRows),
        fromSeq: Number(range.fromSeq),
        oldest: String(range.oldest),
        newest: String(range.newest),
        anchor,
      };
    });
  }
}

async function readAnchor(db: Pick<Db, 'selectFrom'>): Promise<ChainAnchor> {
  const row = await db.selectFrom('server_meta').select('value').where('key', '=', ANCHOR_KEY).executeTakeFirst();
  if (!row) return { seq: 0, hash: AUDIT_GENESIS_HASH };
  const parsed = JSON.parse(row.value) as ChainAnchor;
  return { seq: Number(parsed.seq), hash: String(parsed.hash) };
}
