import type { Generated } from 'kysely';

/** Tables as Kysely sees them. Each migration in `migrations/` moves this shape forward. */
export interface Database {
  user_settings: UserSettingsTable;
}

export interface UserSettingsTable {
  user_id: string;
  /** The settings as JSON; secret values inside are sealed (see `SecretBox`). */
  document: string;
  updated_at: Generated<string>;
}
