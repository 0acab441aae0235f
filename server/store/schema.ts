import type { Generated } from 'kysely';

/** Tables as Kysely sees them. Each migration in `migrations/` moves this shape forward. */
export interface Database {
  user_settings: UserSettingsTable;
  server_meta: ServerMetaTable;
  provider_tokens: ProviderTokensTable;
  custom_secrets: CustomSecretsTable;
}

/** One git provider's token per user; `token` is sealed. */
export interface ProviderTokensTable {
  user_id: string;
  provider: string;
  token: string;
  host: string | null;
  updated_at: string;
}

/** Named secrets a user's agent gets as environment variables; `value` is sealed. */
export interface CustomSecretsTable {
  user_id: string;
  name: string;
  value: string;
  description: string;
  created_at: string;
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
