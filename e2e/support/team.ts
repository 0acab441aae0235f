import type { Role } from '../../src/contract/roles';
import type { RunningServer } from './server';

/** The test server on `localhost`: on 127.0.0.1, where sandboxes are published, the server sets no session cookie. */
export const onLocalhost = (url: string) => url.replace('//127.0.0.1:', '//localhost:');

export interface TeamMember {
  userId: string;
  email: string;
  password: string;
  /** An API key of theirs. */
  key: string;
}

/**
 * Someone the owner invited, who set their password and made an API key, all through the API as
 * a browser page of the server would (its Origin, the session cookie).
 */
export async function addTeamMember(server: RunningServer, email: string, role: Role): Promise<TeamMember> {
  const origin = onLocalhost(server.url);
  const password = `password of ${email}`;
  const invited = await fetch(`${origin}/api/organizations/default/members/invite`, {
    method: 'POST',
    headers: { 'X-Session-API-Key': server.key, 'content-type': 'application/json' },
    body: JSON.stringify({ emails: [email], role }),
  });
  const { successful } = (await invited.json()) as { successful: { id: string; link: string }[] };
  const token = new URL(successful[0]!.link).hash.replace('#token=', '');
  const accepted = await fetch(`${origin}/accept-invitation`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ token, password }),
  });
  const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0]!;
  const created = await fetch(`${origin}/api/keys`, {
    method: 'POST',
    headers: { origin, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'e2e' }),
  });
  const { key } = (await created.json()) as { key: string };
  return { userId: successful[0]!.id, email, password, key };
}

/** Calls the API with a member's key. */
export async function asMember(server: RunningServer, member: TeamMember, path: string, method = 'GET') {
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'X-Session-API-Key': member.key } });
  return { status: response.status, json: () => response.json() as Promise<unknown> };
}
