/** How much work a password's hash takes: Argon2's memory (KiB) and passes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
}

/** 64 MiB and 3 passes (the library's defaults), as OWASP suggests for Argon2id. */
export const DEFAULT_PASSWORD_HASH_COST: PasswordHashCost = { memoryCost: 65_536, timeCost: 3 };
