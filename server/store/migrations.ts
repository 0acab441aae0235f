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
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
