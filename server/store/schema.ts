import type { Generated } from 'kysely';

/** Tables as Kysely sees them. Each migration in `migrations/` moves this shape forward. */
export interface Database {
  user_settings: UserSettingsTable;
  server_meta: ServerMetaTable;
}

/** Facts about the installation itself, such as the secrets key check. */
export interface ServerMetaTable {
  key: string;
  value: string;
}

export interface UserSettingsTable {
  user_id: string;
  /** The settings as JSON; secret values inside are sealed (see `SecretBox`). */
  document: string;
  updated_at: Generated<string>;
}
