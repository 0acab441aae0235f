import { sql } from 'kysely';
import type { Db } from './database';
import { lockForUpdate } from './dialect';
import { type UserScope, userIs } from './user-scope';

/** A UTC day of an ISO time (`2026-12-01T10:00:00.000Z` → `2026-12-01`): the same SQL on SQLite and PostgreSQL. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** A sum as a number (PostgreSQL returns a bigint sum as a string). */
const total = (value: unknown): number => Number(value ?? 0);

/** What the LLM calls of one user, model and UTC day used. */
export interface LlmDayFigures {
  day: string;
  user_id: string;
  model: string | null;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cost: number;
}

/** A stretch a sandbox ran within a range. */
export interface SandboxRun {
  user_id: string;
  runtime: string;
  started_at: string;
  ended_at: string;
}

/**
 * Usage as it happened: LLM calls (written by the LLM proxy into `llm_calls`), sandbox running
 * time and conversation starts. Every read covers `[from, to)` (ISO times) for a scope, through
 * an index on the user and time (one user's) or the time (everyone's).
 */
export class UsageStore {
  constructor(private readonly db: Db) {}

  async llmByDay(scope: UserScope, from: string, to: string): Promise<LlmDayFigures[]> {
    const rows = await this.db
      .selectFrom('llm_calls')
      .select([
        dayOf('created_at').as('day'),
        'user_id',
        'model',
        (eb) => eb.fn.countAll().as('calls'),
        (eb) => eb.fn.sum('prompt_tokens').as('prompt_tokens'),
        (eb) => eb.fn.sum('completion_tokens').as('completion_tokens'),
        (eb) => eb.fn.sum('cache_read_tokens').as('cache_read_tokens'),
        (eb) => eb.fn.sum('cost').as('cost'),
      ])
      .where(userIs(scope))
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy([dayOf('created_at'), 'user_id', 'model'])
      .execute();
    return rows.map((row) => ({
      day: row.day,
      user_id: row.user_id,
      model: row.model,
      calls: total(row.calls),
      prompt_tokens: total(row.prompt_tokens),
      completion_tokens: total(row.completion_tokens),
      cache_read_tokens: total(row.cache_read_tokens),
      cost: total(row.cost),
    }));
  }

  /** Dollars per user since `since`. */
  async costSince(scope: UserScope, since: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('llm_calls')
      .select(['user_id', (eb) => eb.fn.sum('cost').as('cost')])
      .where(userIs(scope))
      .where('created_at', '>=', since)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((row) => [row.user_id, total(row.cost)]));
  }

  /** The stretches sandboxes ran that overlap `[from, to)`, as stored (not cut to the range). */
  sandboxRuns(scope: UserScope, from: string, to: string): Promise<SandboxRun[]> {
    return this.db
      .selectFrom('sandbox_runs')
      .select(['user_id', 'runtime', 'started_at', 'ended_at'])
      .where(userIs(scope))
      .where('ended_at', '>', from)
      .where('started_at', '<', to)
      .execute();
  }

  /** Conversations started per user and UTC day. */
  async startsByDay(scope: UserScope, from: string, to: string): Promise<{ day: string; user_id: string; conversations: number }[]> {
    const rows = await this.db
      .selectFrom('conversation_starts')
      .select([dayOf('created_at').as('day'), 'user_id', (eb) => eb.fn.countAll().as('conversations')])
      .where(userIs(scope))
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy([dayOf('created_at'), 'user_id'])
      .execute();
    return rows.map((row) => ({ day: row.day, user_id: row.user_id, conversations: total(row.conversations) }));
  }

  async recordStart(start: { user_id: string; conversation_id: string; created_at: string }): Promise<void> {
    await this.db.insertInto('conversation_starts').values(start).execute();
  }

  /**
   * That sandbox runs at `now`: its open stretch goes on to now, or one opens. Under a per-sandbox
   * lock on PostgreSQL, so two instances looking at once open one stretch, not two.
   */
  async running(sandbox: { sandbox_id: string; user_id: string; runtime: string }, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, `sandbox_runs:${sandbox.sandbox_id}`);
      const extended = await trx
        .updateTable('sandbox_runs')
        .set({ ended_at: now })
        .where('sandbox_id', '=', sandbox.sandbox_id)
        .where('open', '=', 1)
        .executeTakeFirst();
      if (extended.numUpdatedRows > 0n) return;
      await trx
        .insertInto('sandbox_runs')
        .values({ ...sandbox, started_at: now, ended_at: now, open: 1 })
        .execute();
    });
  }

  /** That sandbox stopped at `now` (paused, deleted, ended): its open stretch closes there. */
  async stopped(sandboxId: string, now: string): Promise<void> {
    await this.db
      .updateTable('sandbox_runs')
      .set({ ended_at: now, open: 0 })
      .where('sandbox_id', '=', sandboxId)
      .where('open', '=', 1)
      .execute();
  }

  /** Its open stretch closes where it was last seen running (found stopped, at a time unknown since). */
  async lastSeenStopped(sandboxId: string): Promise<void> {
    await this.db.updateTable('sandbox_runs').set({ open: 0 }).where('sandbox_id', '=', sandboxId).where('open', '=', 1).execute();
  }
}
