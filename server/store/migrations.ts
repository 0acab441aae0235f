import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import { isPostgres } from './dialect';

/** SQLite's title search ("contains"): a trigram FTS5 index, kept in step by triggers. */
async function createTitleSearch(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE app_conversation_titles USING fts5(title, content='app_conversations', content_rowid='rowid', tokenize='trigram')`.execute(
    db,
  );
  await sql`CREATE TRIGGER app_conversation_titles_insert AFTER INSERT ON app_conversations BEGIN
        INSERT INTO app_conversation_titles(rowid, title) VALUES (new.rowid, new.title); END`.execute(db);
  await sql`CREATE TRIGGER app_conversation_titles_delete AFTER DELETE ON app_conversations BEGIN
        INSERT INTO app_conversation_titles(app_conversation_titles, rowid, title) VALUES ('delete', old.rowid, old.title); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER app_conversation_titles_update AFTER UPDATE OF title ON app_conversations BEGIN
        INSERT INTO app_conversation_titles(app_conversation_titles, rowid, title) VALUES ('delete', old.rowid, old.title);
        INSERT INTO app_conversation_titles(rowid, title) VALUES (new.rowid, new.title); END`.execute(db);
}

/** A stored JSON list as a response has it: what is not a JSON text (null, damaged) is `[]`, as the service reads it. */
const jsonList0011 = (column: string) => `CASE WHEN json_valid(${column}) THEN json(${column}) ELSE json_array() END`;

/**
 * SQLite: a conversation's stored fields as the JSON object a search item has them (read by
 * ConversationsStore.search, beside PostgreSQL's generated column of 0024 and the service's
 * `GET ?ids=` response), of row `row` (`new` in a trigger). Migration 0011's own (0013 renames its
 * column): a change of the item's fields is a new migration that makes the column and triggers
 * again, never an edit here.
 */
const storedFieldsJson0011 = (row: string, createdBy = 'NULL') =>
  `json_object('id', ${row}.id, 'created_by_user_id', ${createdBy}, 'sandbox_id', ${row}.sandbox_id,
    'selected_repository', ${row}.selected_repository, 'selected_branch', ${row}.selected_branch, 'git_provider', ${row}.git_provider,
    'title', ${row}.title, 'trigger', ${row}.trigger, 'pr_number', ${jsonList0011(`${row}.pr_number`)}, 'llm_model', ${row}.llm_model,
    'parent_conversation_id', ${row}.parent_conversation_id, 'sub_conversation_ids', json_array(),
    'created_at', ${row}.created_at, 'updated_at', ${row}.updated_at, 'archived', json(iif(${row}.archived = 1, 'true', 'false')),
    'skills', ${jsonList0011(`${row}.skills`)})`;

/** Migration 0016's: the same object with whose conversation it is. */
const storedFieldsJson0016 = (row: string) => storedFieldsJson0011(row, `${row}.user_id`);

/** The columns storedFieldsJson0011 reads: an update of one of them writes the JSON again (metrics, updated often, is not one). */
const STORED_FIELD_COLUMNS_0011 =
  'id, sandbox_id, selected_repository, selected_branch, git_provider, title, trigger, pr_number, llm_model, parent_conversation_id, created_at, updated_at, archived, skills';

/**
 * SQLite, from migration 0012: a conversation's rowid is its creation time, newest first, so the
 * trigram index (whose rowids they are) lists a title's matches in creation order and a search
 * stops at its page instead of finding every match. The conversations of millisecond `ms` have
 * the rowids from `-(ms * CREATION_SLOTS_0012)` down, one below another as they come: a 65,537th
 * in one millisecond would take the next one's, far beyond what one SQLite writer does. Rowids
 * are 64-bit: times up to 2^47 ms (the year 6429), which the canonical-time trigger holds to.
 */
export const CREATION_SLOTS_0012 = 65_536;
/** Creation times from here on do not fit a rowid (see CREATION_SLOTS_0012). */
export const CREATION_MS_LIMIT_0012 = 2 ** 47;
/** The creation time's millisecond of row `row`; created_at is canonical from 0012 on (see there). */
const creationMs0012 = (row: string) => `CAST(round(unixepoch(${row}.created_at, 'subsec') * 1000) AS INTEGER)`;
/** `rowid` (SQL) is one of millisecond `ms`'s (SQL). */
const inMillisecond0012 = (rowid: string, ms: string) =>
  `${rowid} BETWEEN -((${ms}) * ${CREATION_SLOTS_0012}) - ${CREATION_SLOTS_0012 - 1} AND -((${ms}) * ${CREATION_SLOTS_0012})`;
/** The next rowid down among millisecond `ms`'s (SQL): below those its rows have, leaving out rows where `besides` holds. */
const belowMillisecond0012 = (ms: string, besides = 'false') =>
  `coalesce((SELECT min(other.rowid) FROM app_conversations AS other
      WHERE ${inMillisecond0012('other.rowid', ms)} AND NOT (${besides})), -((${ms}) * ${CREATION_SLOTS_0012}) + 1) - 1`;
/** The canonical text of a time, as `Date.prototype.toISOString` writes it (the service's only form). */
const CANONICAL_TIME_0012 = `'%Y-%m-%dT%H:%M:%fZ'`;

/**
 * SQLite, from migration 0012: the one trigger for what an insert adds (its creation-time rowid,
 * its stored fields as JSON in `column`, its title in the trigram index), in that order.
 */
const conversationsInsertTrigger0012 = (column: string, fieldsJson: (row: string) => string) =>
  `CREATE TRIGGER IF NOT EXISTS app_conversations_insert AFTER INSERT ON app_conversations BEGIN
            UPDATE app_conversations SET rowid = ${belowMillisecond0012(creationMs0012('new'), 'other.rowid = new.rowid')},
              ${column} = ${fieldsJson('new')}
              WHERE rowid = new.rowid;
            INSERT INTO app_conversation_titles(rowid, title) SELECT rowid, title FROM app_conversations WHERE id = new.id; END`;

/** SQLite: whether app_conversations has column `name`. */
async function hasConversationColumn(db: Kysely<unknown>, name: string): Promise<boolean> {
  const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('app_conversations')`.execute(db);
  return columns.rows.some((column) => column.name === name);
}

/** A string or a number as JSON.stringify writes them in a list. */
const JSON_SCALAR_0024 = String.raw`("([^"\\[:cntrl:]]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"|-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)`;

/**
 * PostgreSQL, migration 0024: a stored list as JSON, `[]` when it is not JSON. What the service
 * writes (a list of strings or numbers) is read without the exception block, which would start a
 * subtransaction for each row written (too many in one transaction slow every session's snapshots).
 */
const JSON_LIST_FUNCTION_0024 = `CREATE FUNCTION app_conversation_json_list(list text) RETURNS json LANGUAGE plpgsql IMMUTABLE AS $$
  BEGIN
    IF list IS NULL THEN RETURN '[]'::json; END IF;
    IF list ~ '^\\[(${JSON_SCALAR_0024}(,${JSON_SCALAR_0024})*)?\\]$' THEN RETURN list::json; END IF;
    BEGIN
      RETURN list::json;
    EXCEPTION WHEN invalid_text_representation THEN
      RETURN '[]'::json;
    END;
  END $$`;

/**
 * Every migration, in order. Kept in code (not read from a folder) so the server runs the same
 * way from TypeScript sources and from a bundle. Never edit one that has shipped: add another.
 */
const migrations: Record<string, Migration> = {
  '0001_user_settings': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user_settings')
        .addColumn('user_id', 'text', (col) => col.primaryKey())
        .addColumn('document', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('user_settings').execute();
    },
  },
  '0002_server_meta': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_meta')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('server_meta').execute();
    },
  },
  '0003_git_providers_and_secrets': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('provider_tokens')
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('provider', 'text', (col) => col.notNull())
        .addColumn('token', 'text', (col) => col.notNull())
        .addColumn('host', 'text')
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('provider_tokens_pk', ['user_id', 'provider'])
        .execute();
      await db.schema
        .createTable('custom_secrets')
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('value', 'text', (col) => col.notNull())
        .addColumn('description', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('seq', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('custom_secrets_pk', ['user_id', 'name'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('custom_secrets').execute();
      await db.schema.dropTable('provider_tokens').execute();
    },
  },
  '0004_sandboxes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sandboxes')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('spec_id', 'text', (col) => col.notNull())
        .addColumn('port', 'integer', (col) => col.notNull())
        .addColumn('session_key', 'text', (col) => col.notNull())
        .addColumn('pid', 'integer')
        .addColumn('process_start', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('started_at', 'text', (col) => col.notNull())
        .addColumn('exit_detail', 'text')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sandboxes').execute();
    },
  },
  '0005_conversations': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('app_conversations')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('sandbox_id', 'text', (col) => col.notNull())
        .addColumn('sandbox_created', 'integer', (col) => col.notNull())
        .addColumn('selected_repository', 'text')
        .addColumn('selected_branch', 'text')
        .addColumn('git_provider', 'text')
        .addColumn('title', 'text', (col) => col.notNull())
        .addColumn('trigger', 'text')
        .addColumn('pr_number', 'text', (col) => col.notNull())
        .addColumn('llm_model', 'text')
        .addColumn('metrics', 'text')
        .addColumn('parent_conversation_id', 'text')
        .addColumn('skills', 'text', (col) => col.notNull())
        .addColumn('archived', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      // One index per sort order (keyset pages walk them), led by the columns every search filters on.
      for (const column of ['created_at', 'updated_at', 'title']) {
        await db.schema
          .createIndex(`app_conversations_by_${column}`)
          .on('app_conversations')
          .columns(['user_id', 'archived', column, 'id'])
          .execute();
      }
      await db.schema.createIndex('app_conversations_by_sandbox').on('app_conversations').columns(['sandbox_id']).execute();
      // PostgreSQL searches titles with ILIKE (see conversations-store); FTS5 is SQLite's.
      if (!isPostgres(db)) await createTitleSearch(db);

      await db.schema
        .createTable('start_tasks')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('detail', 'text')
        .addColumn('app_conversation_id', 'text')
        .addColumn('sandbox_id', 'text')
        .addColumn('agent_server_url', 'text')
        .addColumn('request', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      for (const column of ['created_at', 'updated_at']) {
        await db.schema.createIndex(`start_tasks_by_${column}`).on('start_tasks').columns(['user_id', column, 'id']).execute();
      }
      await db.schema.createIndex('start_tasks_by_conversation').on('start_tasks').columns(['app_conversation_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      if (!isPostgres(db)) await sql`DROP TABLE app_conversation_titles`.execute(db);
      await db.schema.dropTable('app_conversations').execute();
      await db.schema.dropTable('start_tasks').execute();
    },
  },
  '0006_conversation_events': {
    async up(db: Kysely<unknown>) {
      // Where the conversation lives in its sandbox: needed to create it again after the sandbox restarts.
      await db.schema.alterTable('app_conversations').addColumn('working_dir', 'text').execute();
      await db.schema
        .createTable('conversation_events')
        // Storage order: the order the agent server sent them in, which is the order a stream replays.
        .addColumn('seq', isPostgres(db) ? 'serial' : 'integer', (col) =>
          isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('conversation_id', 'text', (col) => col.notNull().references('app_conversations.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (col) => col.notNull())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('source', 'text', (col) => col.notNull())
        // UTC ISO (naive SDK times read as UTC), so text order is time order.
        .addColumn('timestamp', 'text', (col) => col.notNull())
        .addColumn('body', 'text', (col) => col.notNull())
        .addUniqueConstraint('conversation_events_once', ['conversation_id', 'event_id'])
        .execute();
      await db.schema
        .createIndex('conversation_events_by_time')
        .on('conversation_events')
        .columns(['conversation_id', 'timestamp', 'seq'])
        .execute();
      await db.schema
        .createIndex('conversation_events_by_user_time')
        .on('conversation_events')
        .columns(['user_id', 'timestamp', 'seq'])
        .execute();
      await db.schema.createIndex('conversation_events_by_id').on('conversation_events').columns(['event_id']).execute();
      // (conversation_id, seq): a stream replays a conversation in storage order from a position.
      await db.schema.createIndex('conversation_events_by_conversation').on('conversation_events').columns(['conversation_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('conversation_events').execute();
      await db.schema.alterTable('app_conversations').dropColumn('working_dir').execute();
    },
  },
  '0007_sandbox_image': {
    async up(db: Kysely<unknown>) {
      // The Settings image can change after a start: the status names the one the sandbox started from.
      await db.schema.alterTable('sandboxes').addColumn('image', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sandboxes').dropColumn('image').execute();
    },
  },
  '0008_provider_token_checks': {
    async up(db: Kysely<unknown>) {
      // When the provider last accepted the stored token (null: saved, never checked, or refused since).
      await db.schema.alterTable('provider_tokens').addColumn('checked_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('provider_tokens').dropColumn('checked_at').execute();
    },
  },
  '0009_server_instances': {
    async up(db: Kysely<unknown>) {
      // Several server instances on one PostgreSQL database: each registers itself and owns the sandboxes its runtime runs.
      await db.schema
        .createTable('server_instances')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('address', 'text')
        .addColumn('started_at', 'text', (col) => col.notNull())
        .addColumn('heartbeat_at', 'text', (col) => col.notNull())
        .addColumn('stopped_at', 'text')
        .execute();
      await db.schema.alterTable('sandboxes').addColumn('owner_instance', 'text').execute();
      // A start runs on the instance it was asked of: a restart of another does not interrupt it.
      await db.schema.alterTable('start_tasks').addColumn('owner_instance', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('start_tasks').dropColumn('owner_instance').execute();
      await db.schema.alterTable('sandboxes').dropColumn('owner_instance').execute();
      await db.schema.dropTable('server_instances').execute();
    },
  },
  '0010_title_order_by_code_point': {
    async up(db: Kysely<unknown>) {
      // PostgreSQL: titles sort as SQLite's BINARY does, whatever the database's locale (see
      // conversations-store); the index keyset pages walk must have that collation. SQLite's has.
      // Built beside the old one first: the DROP takes the table's exclusive lock, only for a moment then.
      if (!isPostgres(db)) return;
      await sql`CREATE INDEX app_conversations_by_title_c ON app_conversations (user_id, archived, title COLLATE "C", id COLLATE "C")`.execute(
        db,
      );
      await sql`DROP INDEX app_conversations_by_title`.execute(db);
      await sql`ALTER INDEX app_conversations_by_title_c RENAME TO app_conversations_by_title`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      await sql`CREATE INDEX app_conversations_by_title_locale ON app_conversations (user_id, archived, title, id)`.execute(db);
      await sql`DROP INDEX app_conversations_by_title`.execute(db);
      await sql`ALTER INDEX app_conversations_by_title_locale RENAME TO app_conversations_by_title`.execute(db);
    },
  },
  '0011_conversation_answer_fields': {
    async up(db: Kysely<unknown>) {
      // SQLite: a search page reads each item's stored fields as JSON written once, not built per
      // request (building it was most of a page's query). PostgreSQL builds it in the query.
      if (isPostgres(db)) return;
      // SQLite commits each statement of a migration on its own: one that stopped half-way runs again whole.
      const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('app_conversations')`.execute(db);
      if (!columns.rows.some((column) => column.name === 'answer_fields'))
        await sql`ALTER TABLE app_conversations ADD COLUMN answer_fields TEXT`.execute(db);
      await sql.raw(`UPDATE app_conversations SET answer_fields = ${storedFieldsJson0011('app_conversations')}`).execute(db);
      // The inner UPDATE sets only answer_fields, which neither trigger watches.
      await sql
        .raw(
          `CREATE TRIGGER IF NOT EXISTS app_conversations_answer_fields_insert AFTER INSERT ON app_conversations BEGIN
            UPDATE app_conversations SET answer_fields = ${storedFieldsJson0011('new')} WHERE rowid = new.rowid; END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER IF NOT EXISTS app_conversations_answer_fields_update AFTER UPDATE OF ${STORED_FIELD_COLUMNS_0011} ON app_conversations BEGIN
            UPDATE app_conversations SET answer_fields = ${storedFieldsJson0011('new')} WHERE rowid = new.rowid; END`,
        )
        .execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (isPostgres(db)) return;
      await sql`DROP TRIGGER app_conversations_answer_fields_update`.execute(db);
      await sql`DROP TRIGGER app_conversations_answer_fields_insert`.execute(db);
      await sql`ALTER TABLE app_conversations DROP COLUMN answer_fields`.execute(db);
    },
  },
  '0012_conversation_rowids_by_creation': {
    async up(db: Kysely<unknown>) {
      if (isPostgres(db)) return;
      // A created_at written in another form (never by the service) is made canonical, so that text
      // order (how searches sort) is time order (how rowids are made); from now on it must be written
      // so. One that is no time at all (never written by the service either) becomes 1970's first.
      await sql
        .raw(
          `UPDATE app_conversations SET created_at = coalesce(strftime(${CANONICAL_TIME_0012}, created_at), '1970-01-01T00:00:00.000Z')
            WHERE created_at IS NOT strftime(${CANONICAL_TIME_0012}, created_at)`,
        )
        .execute(db);
      // Rows already among their millisecond's rowids stay (run again, after a way down and up
      // again, or after stopping half-way); the others go below them, ties in id order. The new
      // rowids are all worked out (a window) before any row moves, and none is taken.
      await sql
        .raw(
          `UPDATE app_conversations SET rowid = keyed.key FROM (
            SELECT rowid AS old, ${belowMillisecond0012('ms')} - (row_number() OVER (PARTITION BY ms ORDER BY id) - 1) AS key
            FROM (SELECT rowid, id, ${creationMs0012('app_conversations')} AS ms FROM app_conversations)
            WHERE NOT ${inMillisecond0012('rowid', 'ms')}
          ) AS keyed WHERE app_conversations.rowid = keyed.old`,
        )
        .execute(db);
      await sql`INSERT INTO app_conversation_titles(app_conversation_titles) VALUES ('rebuild')`.execute(db);
      // One trigger for what an insert adds, in this order: the two it replaces would each have
      // looked for the row by a rowid the other had changed.
      await sql`DROP TRIGGER IF EXISTS app_conversation_titles_insert`.execute(db);
      await sql`DROP TRIGGER IF EXISTS app_conversations_answer_fields_insert`.execute(db);
      await sql.raw(conversationsInsertTrigger0012('answer_fields', storedFieldsJson0011)).execute(db);
      await sql
        .raw(
          `CREATE TRIGGER IF NOT EXISTS app_conversations_created_at_canonical BEFORE INSERT ON app_conversations
            WHEN new.created_at IS NOT strftime(${CANONICAL_TIME_0012}, new.created_at)
              OR ${creationMs0012('new')} >= ${CREATION_MS_LIMIT_0012} BEGIN
            SELECT RAISE(ABORT, 'app_conversations.created_at must be a time before 6429 as toISOString() writes it'); END`,
        )
        .execute(db);
      await sql`CREATE TRIGGER IF NOT EXISTS app_conversations_created_at_kept BEFORE UPDATE OF created_at ON app_conversations
            WHEN new.created_at IS NOT old.created_at BEGIN
            SELECT RAISE(ABORT, 'app_conversations.created_at does not change'); END`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (isPostgres(db)) return;
      // The rowids stay as they are: nothing before 0012 reads them but the trigram index.
      await sql`DROP TRIGGER app_conversations_created_at_kept`.execute(db);
      await sql`DROP TRIGGER app_conversations_created_at_canonical`.execute(db);
      await sql`DROP TRIGGER app_conversations_insert`.execute(db);
      await sql`CREATE TRIGGER app_conversation_titles_insert AFTER INSERT ON app_conversations BEGIN
        INSERT INTO app_conversation_titles(rowid, title) VALUES (new.rowid, new.title); END`.execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_conversations_answer_fields_insert AFTER INSERT ON app_conversations BEGIN
            UPDATE app_conversations SET answer_fields = ${storedFieldsJson0011('new')} WHERE rowid = new.rowid; END`,
        )
        .execute(db);
    },
  },
  '0013_conversation_stored_fields_json': {
    async up(db: Kysely<unknown>) {
      // SQLite: the column of 0011 under a plain name (renaming rewrites the triggers that write it).
      if (isPostgres(db)) return;
      // Each statement commits on its own (see 0011): one that stopped half-way runs again whole.
      if (await hasConversationColumn(db, 'answer_fields'))
        await sql`ALTER TABLE app_conversations RENAME COLUMN answer_fields TO stored_fields_json`.execute(db);
      await sql`DROP TRIGGER IF EXISTS app_conversations_answer_fields_update`.execute(db);
      await sql
        .raw(
          `CREATE TRIGGER IF NOT EXISTS app_conversations_stored_fields_json_update AFTER UPDATE OF ${STORED_FIELD_COLUMNS_0011} ON app_conversations BEGIN
            UPDATE app_conversations SET stored_fields_json = ${storedFieldsJson0011('new')} WHERE rowid = new.rowid; END`,
        )
        .execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (isPostgres(db)) return;
      if (await hasConversationColumn(db, 'stored_fields_json'))
        await sql`ALTER TABLE app_conversations RENAME COLUMN stored_fields_json TO answer_fields`.execute(db);
      await sql`DROP TRIGGER IF EXISTS app_conversations_stored_fields_json_update`.execute(db);
      await sql
        .raw(
          `CREATE TRIGGER IF NOT EXISTS app_conversations_answer_fields_update AFTER UPDATE OF ${STORED_FIELD_COLUMNS_0011} ON app_conversations BEGIN
            UPDATE app_conversations SET answer_fields = ${storedFieldsJson0011('new')} WHERE rowid = new.rowid; END`,
        )
        .execute(db);
    },
  },
  '0014_sandbox_conversation_and_worker_ports': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sandboxes').addColumn('conversation_id', 'text').execute();
      await db.schema.alterTable('sandboxes').addColumn('worker_ports', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sandboxes').dropColumn('worker_ports').execute();
      await db.schema.alterTable('sandboxes').dropColumn('conversation_id').execute();
    },
  },
  '0015_sub_conversations_by_parent': {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('app_conversations_parent').on('app_conversations').column('parent_conversation_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('app_conversations_parent').execute();
    },
  },
  '0016_users_and_api_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.unique())
        .addColumn('name', 'text')
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_sign_in_at', 'text')
        .addColumn('sessions_since', 'text')
        .addColumn('invited_by', 'text')
        .addColumn('invitation_hash', 'text', (col) => col.unique())
        .addColumn('invitation_expires_at', 'text')
        .addColumn('max_running_sandboxes', 'integer')
        .addColumn('max_sandboxes', 'integer')
        .execute();
      // Everything stored so far is the one user's, who holds the session key: the owner.
      await sql`INSERT INTO users (id, role, status, created_at) VALUES ('default', 'owner', 'active', ${new Date().toISOString()})`.execute(
        db,
      );
      await db.schema
        .createTable('api_keys')
        .addColumn('id', isPostgres(db) ? 'serial' : 'integer', (col) =>
          isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('prefix', 'text', (col) => col.notNull())
        .addColumn('key_hash', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('expires_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_by_user').on('api_keys').column('user_id').execute();
      await db.schema
        .alterTable('sandboxes')
        .addColumn('created_by_user_id', 'text', (col) => col.notNull().defaultTo('default'))
        .execute();
      await db.schema.createIndex('sandboxes_by_user').on('sandboxes').column('created_by_user_id').execute();
      if (isPostgres(db)) return;
      // SQLite's stored search items name their user from now (admins see everyone's).
      await sql`DROP TRIGGER IF EXISTS app_conversations_insert`.execute(db);
      await sql`DROP TRIGGER IF EXISTS app_conversations_stored_fields_json_update`.execute(db);
      await sql.raw(`UPDATE app_conversations SET stored_fields_json = ${storedFieldsJson0016('app_conversations')}`).execute(db);
      await sql.raw(conversationsInsertTrigger0012('stored_fields_json', storedFieldsJson0016)).execute(db);
      await sql
        .raw(
          `CREATE TRIGGER app_conversations_stored_fields_json_update AFTER UPDATE OF user_id, ${STORED_FIELD_COLUMNS_0011} ON app_conversations BEGIN
            UPDATE app_conversations SET stored_fields_json = ${storedFieldsJson0016('new')} WHERE rowid = new.rowid; END`,
        )
        .execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (!isPostgres(db)) {
        await sql`DROP TRIGGER app_conversations_insert`.execute(db);
        await sql`DROP TRIGGER app_conversations_stored_fields_json_update`.execute(db);
        await sql.raw(`UPDATE app_conversations SET stored_fields_json = ${storedFieldsJson0011('app_conversations')}`).execute(db);
        await sql.raw(conversationsInsertTrigger0012('stored_fields_json', storedFieldsJson0011)).execute(db);
        await sql
          .raw(
            `CREATE TRIGGER app_conversations_stored_fields_json_update AFTER UPDATE OF ${STORED_FIELD_COLUMNS_0011} ON app_conversations BEGIN
            UPDATE app_conversations SET stored_fields_json = ${storedFieldsJson0011('new')} WHERE rowid = new.rowid; END`,
          )
          .execute(db);
      }
      await db.schema.dropIndex('sandboxes_by_user').execute();
      await db.schema.alterTable('sandboxes').dropColumn('created_by_user_id').execute();
      await db.schema.dropTable('api_keys').execute();
      await db.schema.dropTable('users').execute();
    },
  },
  '0017_orders_across_users': {
    async up(db: Kysely<unknown>) {
      // The owner's and admins' searches have no user condition: the indexes led by user_id serve
      // them no order. One index per order they page in, led by what they always filter on.
      for (const column of ['created_at', 'updated_at']) {
        await db.schema
          .createIndex(`app_conversations_all_by_${column}`)
          .on('app_conversations')
          .columns(['archived', column, 'id'])
          .execute();
        await db.schema.createIndex(`start_tasks_all_by_${column}`).on('start_tasks').columns([column, 'id']).execute();
      }
      // Titles in code-point order on PostgreSQL too (see 0010).
      if (isPostgres(db))
        await sql`CREATE INDEX app_conversations_all_by_title ON app_conversations (archived, title COLLATE "C", id COLLATE "C")`.execute(
          db,
        );
      else
        await db.schema
          .createIndex('app_conversations_all_by_title')
          .on('app_conversations')
          .columns(['archived', 'title', 'id'])
          .execute();
      // With the kind: events of one kind are counted and paged in it, not read from the table.
      await db.schema
        .createIndex('conversation_events_all_by_time')
        .on('conversation_events')
        .columns(['timestamp', 'seq', 'kind'])
        .execute();
      await db.schema.createIndex('users_by_joining').on('users').columns(['created_at', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const index of [
        'users_by_joining',
        'conversation_events_all_by_time',
        'app_conversations_all_by_title',
        'start_tasks_all_by_updated_at',
        'start_tasks_all_by_created_at',
        'app_conversations_all_by_updated_at',
        'app_conversations_all_by_created_at',
      ])
        await db.schema.dropIndex(index).execute();
    },
  },
  '0018_llm_calls': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('llm_calls')
        .addColumn('id', isPostgres(db) ? 'serial' : 'integer', (col) =>
          isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('conversation_id', 'text', (col) => col.notNull())
        .addColumn('model', 'text')
        .addColumn('status', 'integer', (col) => col.notNull())
        .addColumn('prompt_tokens', 'integer', (col) => col.notNull())
        .addColumn('completion_tokens', 'integer', (col) => col.notNull())
        .addColumn('cache_read_tokens', 'integer', (col) => col.notNull())
        .addColumn('cost', isPostgres(db) ? 'double precision' : 'real')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      // Kept after its conversation and user are gone: what was spent stays spent.
      await db.schema.createIndex('llm_calls_by_user').on('llm_calls').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('llm_calls_by_conversation').on('llm_calls').columns(['conversation_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('llm_calls').execute();
    },
  },
  '0019_user_email_verified': {
    async up(db: Kysely<unknown>) {
      // 1 once an identity provider said the address is the user's (OIDC `email_verified`).
      await db.schema
        .alterTable('users')
        .addColumn('email_verified', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('email_verified').execute();
    },
  },
  '0020_audit_log': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('seq', 'integer', (col) => col.primaryKey())
        .addColumn('id', 'text', (col) => col.notNull().unique())
        .addColumn('time', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text')
        .addColumn('user_name', 'text')
        .addColumn('auth_method', 'text')
        .addColumn('api_key_name', 'text')
        .addColumn('ip', 'text')
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('resource_type', 'text', (col) => col.notNull())
        .addColumn('resource_id', 'text')
        .addColumn('resource_target', 'text')
        .addColumn('result', 'text', (col) => col.notNull())
        .addColumn('reason', 'text')
        .addColumn('diff', 'text', (col) => col.notNull())
        .addColumn('prev_hash', 'text', (col) => col.notNull())
        .addColumn('hash', 'text', (col) => col.notNull())
        .execute();
      // Pages are newest first, by time within a filter; retention removes by time.
      await db.schema.createIndex('audit_log_by_time').on('audit_log').columns(['time', 'seq']).execute();
      await db.schema.createIndex('audit_log_by_user').on('audit_log').columns(['user_id', 'time']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_log').execute();
    },
  },
  '0021_usage': {
    async up(db: Kysely<unknown>) {
      const id = (table: string) =>
        db.schema
          .createTable(table)
          .addColumn('id', isPostgres(db) ? 'serial' : 'integer', (col) =>
            isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement(),
          );
      // A sandbox's running time, written as it runs: opened at a start or resume, `ended_at` moved
      // on while it runs (so a crash loses little), closed when it stops. Kept after the sandbox goes.
      await id('sandbox_runs')
        .addColumn('sandbox_id', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('runtime', 'text', (col) => col.notNull())
        .addColumn('started_at', 'text', (col) => col.notNull())
        .addColumn('ended_at', 'text', (col) => col.notNull())
        .addColumn('open', 'integer', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('sandbox_runs_of_sandbox').on('sandbox_runs').columns(['sandbox_id', 'open']).execute();
      await db.schema.createIndex('sandbox_runs_by_user').on('sandbox_runs').columns(['user_id', 'ended_at']).execute();
      await db.schema.createIndex('sandbox_runs_by_time').on('sandbox_runs').columns(['ended_at']).execute();
      // Each conversation started, kept after it is deleted: the usage page counts them per day.
      await id('conversation_starts')
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('conversation_id', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('conversation_starts_by_user').on('conversation_starts').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('conversation_starts_by_time').on('conversation_starts').columns(['created_at']).execute();
      // Everyone's calls over a range (an admin's usage page).
      await db.schema.createIndex('llm_calls_by_time').on('llm_calls').columns(['created_at']).execute();
      // Dollars a month of LLM calls an admin allows a user; null: no limit.
      await db.schema
        .alterTable('users')
        .addColumn('monthly_cost_limit', isPostgres(db) ? 'double precision' : 'real')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('monthly_cost_limit').execute();
      await db.schema.dropIndex('llm_calls_by_time').execute();
      await db.schema.dropTable('conversation_starts').execute();
      await db.schema.dropTable('sandbox_runs').execute();
    },
  },
  '0022_browser_sessions': {
    async up(db: Kysely<unknown>) {
      // No foreign key to users: a deleted user's sessions are ended (and recorded) by the delete, not cascaded away unseen.
      await db.schema
        .createTable('browser_sessions')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('key_id', 'integer')
        .addColumn('issued_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('browser_sessions_by_user').on('browser_sessions').columns(['user_id', 'issued_at']).execute();
      await db.schema.createIndex('browser_sessions_by_key').on('browser_sessions').column('key_id').execute();
      await db.schema.createIndex('browser_sessions_by_expiry').on('browser_sessions').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('browser_sessions').execute();
    },
  },
  '0023_title_trigrams_on_postgres': {
    /*
     * PostgreSQL: a title search (`ILIKE '%term%'`) from a trigram index (pg_trgm, trusted: the
     * database's owner may add it), not the date index walked through every title until a page is
     * full. A database whose user may not add the extension goes on without the index.
     */
    async up(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      const { rows } = await sql<{ possible: boolean }>`
        SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
          OR (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm')
            AND has_database_privilege(current_database(), 'CREATE')) AS possible`.execute(db);
      if (!rows[0]?.possible) return;
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX app_conversations_title_trigrams ON app_conversations USING gin (title gin_trgm_ops)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (isPostgres(db)) await sql`DROP INDEX IF EXISTS app_conversations_title_trigrams`.execute(db);
    },
  },
  '0024_stored_fields_json_on_postgres': {
    /*
     * PostgreSQL: a conversation's search fields as one JSON text in a generated column, as
     * SQLite's triggers keep one, not built by every search for each row of its page. The
     * functions are immutable, as a generated column needs: their inputs are texts and an integer.
     * A stored list that is not JSON is `[]`, as SQLite's column and the service have it.
     */
    async up(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      await sql.raw(JSON_LIST_FUNCTION_0024).execute(db);
      await sql`CREATE FUNCTION app_conversation_stored_fields(id text, user_id text, sandbox_id text, selected_repository text,
          selected_branch text, git_provider text, title text, trigger text, pr_number text, llm_model text,
          parent_conversation_id text, created_at text, updated_at text, archived integer, skills text)
        RETURNS text LANGUAGE sql IMMUTABLE AS $$
          SELECT json_build_object('id', id, 'created_by_user_id', user_id, 'sandbox_id', sandbox_id,
            'selected_repository', selected_repository, 'selected_branch', selected_branch, 'git_provider', git_provider,
            'title', title, 'trigger', trigger, 'pr_number', app_conversation_json_list(pr_number), 'llm_model', llm_model,
            'parent_conversation_id', parent_conversation_id, 'sub_conversation_ids', json_build_array(),
            'created_at', created_at, 'updated_at', updated_at, 'archived', archived = 1, 'skills', app_conversation_json_list(skills))::text
        $$`.execute(db);
      await sql`ALTER TABLE app_conversations ADD COLUMN stored_fields_json text GENERATED ALWAYS AS (app_conversation_stored_fields(id,
        user_id, sandbox_id, selected_repository, selected_branch, git_provider, title, trigger, pr_number, llm_model,
        parent_conversation_id, created_at, updated_at, archived, skills)) STORED`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      await sql`ALTER TABLE app_conversations DROP COLUMN stored_fields_json`.execute(db);
      await sql`DROP FUNCTION app_conversation_stored_fields`.execute(db);
      await sql`DROP FUNCTION app_conversation_json_list`.execute(db);
    },
  },
  '0025_title_statistics_on_postgres': {
    /*
     * PostgreSQL: a title search's estimate of its matches comes from the title column's
     * histogram, of 100 titles by default. A term in one title of a hundred was found in none, one
     * or three of them at each ANALYZE, and the planner walked a date index through most of the
     * table as often as it read the trigram index's matches. A histogram of 1,000 holds it steady.
     */
    async up(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      await sql`ALTER TABLE app_conversations ALTER COLUMN title SET STATISTICS 1000`.execute(db);
      await sql`ANALYZE app_conversations`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (isPostgres(db)) await sql`ALTER TABLE app_conversations ALTER COLUMN title SET STATISTICS -1`.execute(db);
    },
  },
  '0026_title_trigrams_without_pending_list': {
    /*
     * PostgreSQL: a GIN index keeps new entries in a pending list until a vacuum merges them, and
     * every search reads that whole list: after many new conversations, far more pages of it than of
     * the index itself. Conversations are searched far more often than written: their titles go
     * into the index at once, and what is pending goes in now.
     */
    async up(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      const { rows } = await sql<{ index: string | null }>`SELECT to_regclass('app_conversations_title_trigrams')::text AS index`.execute(
        db,
      );
      if (!rows[0]?.index) return; // made without pg_trgm (0023)
      await sql`ALTER INDEX app_conversations_title_trigrams SET (fastupdate = off)`.execute(db);
      await sql`SELECT gin_clean_pending_list('app_conversations_title_trigrams'::regclass)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (isPostgres(db)) await sql`ALTER INDEX IF EXISTS app_conversations_title_trigrams SET (fastupdate = on)`.execute(db);
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
