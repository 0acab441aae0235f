import argon2 from 'argon2';

/** Argon2id with the library's defaults (64 MiB, 3 passes), as OWASP suggests for it. */
export const hashPassword = (password: string): Promise<string> => argon2.hash(password, { type: argon2.argon2id });

/** A hash no password matches, checked when there is no user: an unknown email takes as long as a wrong password. */
let standIn: Promise<string> | undefined;

/** Whether `password` matches `hash`; with no hash, the same work is done and the answer is no. */
export async function passwordMatches(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    standIn ??= hashPassword(`stand-in ${Math.random()}`);
    await argon2.verify(await standIn, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
