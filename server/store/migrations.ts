import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

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
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
