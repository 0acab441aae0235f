import { TASKS, TICKETS } from './titles';

/*
 * Release notes of the storefront as its release chore writes them: the work merged since the last
 * tag, sorted into features, fixes and chores.
 */

const SECTIONS = [
  ['Fixes', /^(Fix|ACME-)/],
  ['Chores', /^(Upgrade|Remove|Migrate|Document|Pin|Generate)/],
  ['Features', /./],
] as const;

/** The titles merged for `version` (v2.N.0): a few of the team's tasks and tickets, different for each N. */
export function mergedFor(version: string): string[] {
  const n = Number(/v2\.(\d+)\./.exec(version)?.[1] ?? 0);
  const tasks = TASKS['acme/storefront']!;
  const picked = [0, 3, 7].map((step) => tasks[(n * 5 + step) % tasks.length]!);
  return [...picked, `ACME-${2291 + (n % TICKETS.length) * 37}: ${TICKETS[n % TICKETS.length]!}`];
}

/** The notes file for `version`, from the titles merged since the last tag. */
export function releaseNotes(version: string, merged: string[]): string {
  const sections = SECTIONS.map(([heading]) => ({ heading, lines: [] as string[] }));
  for (const title of merged) {
    const index = SECTIONS.findIndex(([, pattern]) => pattern.test(title));
    sections[index]!.lines.push(`- ${title.replace(/^ACME-(\d+): (.*)$/, '$2 (ACME-$1)')}`);
  }
  const body = sections
    .filter((section) => section.lines.length > 0)
    .map((section) => `## ${section.heading}\n\n${section.lines.join('\n')}`)
    .join('\n\n');
  return `# Storefront ${version}\n\n${body}\n`;
}
