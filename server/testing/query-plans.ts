import { CompiledQuery, type KyselyPlugin, type QueryId, sql } from 'kysely';
import type { Db } from '../store/database';
import { isPostgres } from '../store/dialect';

/**
 * `db` as a store uses it, keeping each query it runs (compiled, with its parameters), so a test
 * can ask the database how it would run exactly those.
 */
export function recordingQueries(db: Db): { db: Db; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  // A subquery is transformed too, when the query around it is built: only what ran is kept, when its result comes.
  const compiled = new Map<QueryId, CompiledQuery>();
  // Compiled by the plain executor: the recording one would record its own compiling again.
  const executor = db.getExecutor();
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      compiled.set(queryId, executor.compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      const query = compiled.get(queryId);
      if (query) queries.push(query);
      return result;
    },
  };
  return { db: db.withPlugin(recorder), queries };
}

/**
 * The plan the database chooses for `query`, a line per step. PostgreSQL is told to avoid table
 * scans and sorts wherever it can: one left in its plan means no index serves the query, whatever
 * the table's size (at a test's size, a scan and a sort would be cheaper, and chosen). With
 * `asCosted`, PostgreSQL plans by its costs alone, as it does for the server (a test on a table
 * large enough for them to decide). With `run` too, PostgreSQL runs the query and says under each
 * step how many pages it read (`pagesRead`).
 */
export async function planOf(db: Db, query: CompiledQuery, { asCosted = false, run = false } = {}): Promise<string[]> {
  if (!isPostgres(db)) {
    const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
    return plan.rows.map((row) => row.detail);
  }
  return db.transaction().execute(async (trx) => {
    if (!asCosted) {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_sort = off`.execute(trx);
    }
    const explain = run ? 'EXPLAIN (ANALYZE, BUFFERS)' : 'EXPLAIN';
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]));
    return plan.rows.map((row) => row['QUERY PLAN'].trim());
  });
}

/** The pages (in memory or not) the first step of a run `plan` (`planOf` with `run`) naming `what` read, itself and through the steps under it. */
export function pagesRead(plan: string[], what: string): number {
  const step = plan.findIndex((line) => line.includes(what));
  const buffers = step < 0 ? undefined : plan.slice(step + 1).find((line) => line.startsWith('Buffers:'));
  if (!buffers) throw new Error(`no step naming ${what}, with the pages it read, in:\n${plan.join('\n')}`);
  return [...buffers.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, [, pages]) => sum + Number(pages), 0);
}

/** The steps of `plan` that read a whole table: SQLite's `SCAN t` without an index, PostgreSQL's `Seq Scan`. */
export const fullScans = (plan: string[]): string[] =>
  plan.filter((step) => /^SCAN \w+$/.test(step) || /Seq Scan on/.test(step)).filter((step) => step !== 'SCAN page');

/** The steps of `plan` that sort rows after reading them, instead of reading them in order from an index. */
export const sorts = (plan: string[]): string[] => plan.filter((step) => /TEMP B-TREE|(^|->\s*)(Incremental )?Sort\s+\(/.test(step));
