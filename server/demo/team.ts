import { DEMO_MODEL } from '../../src/contract/demo-model';
import type { Role } from '../../src/contract/roles';
import type { ApiServices } from '../services/create-services';
import { type Caller, sessionKeyCaller } from '../authz/caller';
import { gitProvidersOf } from './settings-data';

/** What every demo user signs in with (the demo is a showcase, not a place for secrets). */
export const DEMO_PASSWORD = 'demo password';

interface DemoPerson {
  name: string;
  email: string;
  role: Role;
}

/** The team besides the owner who holds the session key: each owns the sandbox groups named in seed.ts. */
export const DEMO_PEOPLE = {
  ada: { name: 'Ada Okafor', email: 'ada@acme.example', role: 'admin' },
  alan: { name: 'Alan Brooks', email: 'alan@acme.example', role: 'admin' },
  mei: { name: 'Mei Tanaka', email: 'mei@acme.example', role: 'member' },
  sam: { name: 'Sam Rivera', email: 'sam@acme.example', role: 'member' },
  priya: { name: 'Priya Nair', email: 'priya@acme.example', role: 'member' },
  jonas: { name: 'Jonas Berg', email: 'jonas@acme.example', role: 'member' },
  lena: { name: 'Lena Fischer', email: 'lena@acme.example', role: 'member' },
  dora: { name: 'Dora Quinn (left)', email: 'dora@acme.example', role: 'member' },
} as const satisfies Record<string, DemoPerson>;

export type DemoPersonName = keyof typeof DEMO_PEOPLE;
export type DemoTeam = Record<DemoPersonName, Caller>;

/**
 * The team, made as an admin makes it: invitations accepted with a password, each member's own
 * git providers, team defaults every member inherits (the demo model, confirmation mode), a
 * pending invitation and (once their work is seeded, `retireFromDemoTeam`) a disabled member.
 */
export async function seedTeam(services: ApiServices): Promise<DemoTeam> {
  const team = {} as DemoTeam;
  for (const [key, person] of Object.entries(DEMO_PEOPLE) as [DemoPersonName, DemoPerson][]) {
    const { successful, tokens } = await services.team.invite(sessionKeyCaller, [person.email], person.role);
    const userId = successful[0]!.id;
    await services.team.acceptInvitation(tokens.get(userId)!, DEMO_PASSWORD, person.name);
    team[key] = { userId, role: person.role, authType: 'api_key' };
    await services.secrets.replaceProviderTokens(team[key], gitProvidersOf(person.email));
  }
  await services.team.patchMember(sessionKeyCaller, team.mei.userId, { max_running_sandboxes: 2, max_sandboxes: 6 });
  await services.settings.updateOrganizationDefaults(sessionKeyCaller, { llm_model: DEMO_MODEL, confirmation_mode: true });
  await services.team.invite(team.ada, ['new.hire@acme.example'], 'member');
  return team;
}

/** Dora has left: disabled, her conversations stay for the team. */
export async function retireFromDemoTeam(services: ApiServices, team: DemoTeam): Promise<void> {
  await services.team.patchMember(sessionKeyCaller, team.dora.userId, { status: 'disabled' });
}
