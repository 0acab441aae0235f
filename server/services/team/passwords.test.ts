import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHEAP_ARGON2 } from '../../testing/test-app';
import { Unavailable } from '../../domain-errors';
import { Passwords } from './passwords';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Passwords', () => {
  it('hashes at most two at once, lets sixteen more wait and refuses the rest at once', async () => {
    const verify = argon2.verify.bind(argon2);
    let running = 0;
    let most = 0;
    vi.spyOn(argon2, 'verify').mockImplementation(async (...args: Parameters<typeof argon2.verify>) => {
      most = Math.max(most, ++running);
      try {
        return await verify(...args);
      } finally {
        running--;
      }
    });
    const passwords = new Passwords(CHEAP_ARGON2);
    const hash = await passwords.hash('the right password');
    const answers = await Promise.allSettled(Array.from({ length: 40 }, () => passwords.matches(hash, 'a wrong one')));
    expect(most).toBe(2);
    expect(answers.filter((answer) => answer.status === 'fulfilled' && answer.value === false)).toHaveLength(18);
    const refused = answers.filter((answer) => answer.status === 'rejected');
    expect(refused).toHaveLength(22);
    expect(refused.every((answer) => answer.reason instanceof Unavailable)).toBe(true);
    expect(await passwords.matches(hash, 'the right password')).toBe(true);
  });

  it('hashes at 64 MiB and 3 passes unless given a cost, and checks a hash made at another cost', async () => {
    const hashed = vi.spyOn(argon2, 'hash').mockResolvedValue('a hash');
    await new Passwords().hash('a password');
    expect(hashed).toHaveBeenCalledWith('a password', { type: argon2.argon2id, memoryCost: 65_536, timeCost: 3 });
    hashed.mockRestore();
    const cheap = await new Passwords(CHEAP_ARGON2).hash('a password');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,p=4,t=1\$/);
    expect(await new Passwords().matches(cheap, 'a password')).toBe(true);
  });

  it('does the same work for no hash as for a wrong password, and says no', async () => {
    const verified = vi.spyOn(argon2, 'verify');
    const passwords = new Passwords(CHEAP_ARGON2);
    expect(await passwords.matches(undefined, 'anything')).toBe(false);
    expect(verified).toHaveBeenCalledTimes(1);
  });
});
