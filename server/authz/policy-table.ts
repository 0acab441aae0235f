import { ROLES } from '../../src/contract/roles';
import { ACTION_MEANINGS, type Reach, type Resource, ROLE_GRANTS, SYSTEM_TASKS } from './policy';

/*
 * The policy as the Markdown tables docs/teams.md shows (a test holds them alike): who may do what
 * to whose, and what the server's own tasks may do.
 */

const REACH_WORDS: Record<Reach, string> = { own: 'own', any: 'everyone’s', 'non-owner': 'everyone’s but owners’' };

const grantsOf = (grants: object, resource: string) => (grants as Record<string, Record<string, Reach> | undefined>)[resource] ?? {};

/** Role × resource × action: one row per action. */
export function rolesTable(): string {
  const rows = (Object.entries(ACTION_MEANINGS) as [Resource, Record<string, string>][]).flatMap(([resource, actions]) =>
    Object.entries(actions).map(([action, meaning]) => {
      const cells = ROLES.map((role) => {
        const reach = grantsOf(ROLE_GRANTS[role], resource)[action];
        return reach ? REACH_WORDS[reach] : '—';
      });
      return `| ${resource} | ${action} | ${meaning} | ${cells.join(' | ')} |`;
    }),
  );
  return [
    `| Resource | Action | What it is | ${ROLES.join(' | ')} |`,
    `| --- | --- | --- | ${ROLES.map(() => '---').join(' | ')} |`,
    ...rows,
  ].join('\n');
}

/** Each of the server's own tasks and what it may do. */
export function systemTasksTable(): string {
  const rows = Object.entries(SYSTEM_TASKS).map(([task, grants]) => {
    const may = Object.entries(grants).flatMap(([resource, actions]) =>
      Object.entries(actions as Record<string, Reach>).map(
        ([action, reach]) => `${resource} ${action} (${reach === 'own' ? 'one user’s' : REACH_WORDS[reach]})`,
      ),
    );
    return `| ${task} | ${may.join(', ')} |`;
  });
  return ['| Task | May |', '| --- | --- |', ...rows].join('\n');
}
