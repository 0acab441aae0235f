import type { Role } from '../../src/contract/roles';
import { type Caller, sessionKeyCaller } from '../authz/caller';
import type { TestApp } from './test-app';

export interface TestMember {
  userId: string;
  email: string;
  /** An API key of theirs, for `X-Session-API-Key`. */
  key: string;
  caller: Caller;
}

/** A user who accepted their invitation (password `password`), with an API key. */
export async function addMember(t: TestApp, email: string, role: Role, password = 'a long enough password'): Promise<TestMember> {
  const { successful, tokens } = await t.services.team.invite(sessionKeyCaller, [email], role);
  const userId = successful[0]!.id;
  await t.services.team.acceptInvitation(tokens.get(userId)!, password, email.split('@')[0]);
  const caller: Caller = { userId, role, authType: 'api_key' };
  const { key } = await t.services.apiKeys.create(caller, { name: 'tests' });
  return { userId, email, key, caller };
}
