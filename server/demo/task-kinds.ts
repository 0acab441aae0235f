import type { PlannedConversation } from './conversation-plan';
import type { Bump } from './dependencies';
import type { Recorder } from './recorder';
import { mergedFor, releaseNotes } from './release-notes';
import type { Toolchain } from './toolchains';

/*
 * What kind of work a demo conversation's task is, and that work as its agent did it: release notes
 * are a notes file, a dependency update a manifest and its lock file, a fix a failing test made to
 * pass, a triage the alerts read and the code that raised them mended, a test task a test file,
 * anything else a change of the code.
 */

export type TaskKind = 'release-notes' | 'dependency-update' | 'triage' | 'fix' | 'test' | 'change';

export function taskKindOf(conversation: PlannedConversation, tools: Toolchain): TaskKind {
  const { title } = conversation;
  if (/^Write release notes/.test(title)) return 'release-notes';
  if (tools.dependencies && /dependency updates|^(Upgrade|Pin) /i.test(title) && bumpFor(conversation, tools)) return 'dependency-update';
  if (conversation.story === 'sentry' || title.includes('Sentry')) return 'triage';
  if (/^(Fix |ACME-\d+:)/.test(title)) return 'fix';
  if (/^Add\b.*\btests?\b/.test(title)) return 'test';
  return 'change';
}

/** The dependencies a task names, in the repository that has them. */
const NAMED: { pattern: RegExp; bump: Bump }[] = [
  { pattern: /Next\.js/, bump: { name: 'next', from: '14.2.15', to: '15.0.3' } },
  { pattern: /React Native/, bump: { name: 'react-native', from: '0.75.4', to: '0.76.1' } },
  { pattern: /pg driver/, bump: { name: 'github.com/jackc/pgx/v5', from: 'v5.5.5', to: 'v5.7.1' } },
  { pattern: /numpy/, bump: { name: 'numpy', from: '2.1.1', to: '1.26.4' } },
];

/** The dependency `conversation` moves: the one its title names, or this week's pick of the weekly ones. */
function bumpFor(conversation: PlannedConversation, tools: Toolchain): Bump | undefined {
  const dependencies = tools.dependencies!;
  const named = NAMED.find(({ pattern, bump }) => pattern.test(conversation.title) && bump.name in dependencies.pinned);
  if (named) return named.bump;
  if (!/dependency updates/i.test(conversation.title)) return undefined;
  const week = Math.floor(conversation.createdAt.getTime() / (7 * 86_400_000));
  return dependencies.weekly[week % dependencies.weekly.length];
}

/** The file the work starts from, which a stopped conversation had opened. */
export function firstFile(kind: TaskKind, tools: Toolchain): string {
  if (kind === 'release-notes') return 'CHANGELOG.md';
  if (kind === 'dependency-update') return tools.dependencies!.manifest;
  return tools.file;
}

/** What the task is about, in a file name: the title's words after its verb. */
const slugOf = (title: string) =>
  title
    .replace(/^ACME-\d+:\s*/, '')
    .replace(/^(Fix|Add)\s+(a|an|the)?\s*/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .slice(0, 5)
    .join('-');

/** The regression case of `title`: named after the fault, in words. */
const regressionCase = (title: string, tools: Toolchain) => ({
  name: title.replace(/^ACME-\d+:\s*/, '').replace(/^Fix\s+(the\s+)?/i, 'no longer: '),
  body: tools.regression,
});

function releaseNotesWork(recorder: Recorder, conversation: PlannedConversation) {
  const version = /v\d+\.\d+\.\d+/.exec(conversation.title)?.[0] ?? 'v2.0.0';
  const previous = version.replace(/^v(\d+)\.(\d+)\./, (_, major: string, minor: string) => `v${major}.${Number(minor) - 1}.`);
  const merged = mergedFor(version);
  recorder.terminal(
    `git describe --tags --abbrev=0 && git log --oneline --no-merges ${previous}..HEAD`,
    [previous, ...merged.map((title) => `${hash(title)} ${title}`)].join('\n'),
    2,
  );
  recorder.message('agent', `${merged.length} changes since ${previous}. I'll group them into features, fixes and chores.`, 12);
  recorder.create(`docs/releases/${version}.md`, releaseNotes(version, merged));
}

function dependencyWork(recorder: Recorder, conversation: PlannedConversation, tools: Toolchain) {
  const dependencies = tools.dependencies!;
  const bump = bumpFor(conversation, tools)!;
  const before = { ...dependencies.pinned, [bump.name]: bump.from };
  const after = { ...before, [bump.name]: bump.to };
  recorder.message(
    'agent',
    `${bump.name} moves from ${bump.from} to ${bump.to}. I'll update the manifest and the lock file, then run the checks.`,
    10,
  );
  recorder.edit(dependencies.manifest, dependencies.manifestText(before), dependencies.manifestText(after));
  const install = dependencies.install(bump);
  recorder.terminal(install.command, install.output, 30);
  recorder.edit(dependencies.lock, dependencies.lockText(before), dependencies.lockText(after));
}

function fixWork(recorder: Recorder, conversation: PlannedConversation, tools: Toolchain) {
  const failing = regressionCase(conversation.title, tools);
  const path = tools.tests.path(slugOf(conversation.title));
  recorder.message('agent', `First a test that shows the fault, then the fix in ${tools.file}.`, 10);
  recorder.create(path, tools.tests.file(tools.testHeader, [failing]));
  recorder.terminal(tools.tests.run(path), tools.tests.failed(path, failing, tools.alert.error), 6, 1);
  recorder.message('agent', `It fails as reported: ${tools.alert.error}. Mending ${tools.alert.function}.`, 8);
  recorder.edit(tools.file, tools.before, tools.fixed);
  recorder.terminal(tools.tests.run(path), tools.tests.passed(path, [failing]), 6);
}

/** What the Sentry MCP server lists for the project, the fault in `tools` first. */
export function sentryIssues(project: string, tools: Toolchain) {
  return [
    {
      id: `${project.toUpperCase()}-4F2`,
      title: tools.alert.error,
      culprit: `${tools.alert.function} (${tools.file}:${tools.alert.line})`,
      count: 212,
      lastSeen: '03:41',
    },
    {
      id: `${project.toUpperCase()}-9A1`,
      title: 'context deadline exceeded: ledger.Post',
      culprit: 'ledger.Post',
      count: 37,
      lastSeen: '02:12',
    },
    {
      id: `${project.toUpperCase()}-4E8`,
      title: 'ChunkLoadError: Loading chunk 812 failed',
      culprit: 'webpack/runtime',
      count: 9,
      lastSeen: '05:03',
    },
  ];
}

function triageWork(recorder: Recorder, conversation: PlannedConversation, tools: Toolchain) {
  const project = conversation.repository!.name.split('/')[1]!;
  const [top] = sentryIssues(project, tools);
  recorder.mcp('sentry', 'list_issues', { project, since: '12h' }, JSON.stringify(sentryIssues(project, tools), null, 2));
  recorder.mcp(
    'sentry',
    'get_issue_details',
    { issue_id: top!.id },
    `${top!.title}\n\nStack trace (most recent call first):\n  at ${tools.alert.function} (${tools.file}:${tools.alert.line})\n  at processTicksAndRejections (node:internal/process/task_queues:95:5)`,
  );
  recorder.message(
    'agent',
    `The first one (212 events) comes from ${tools.alert.function} in ${tools.file}; the other two look transient. Fixing the first.`,
    10,
  );
  recorder.view(tools.file, tools.before);
  recorder.edit(tools.file, tools.before, tools.fixed);
  const regression = { name: `does not raise ${top!.id}`, body: tools.regression };
  const path = tools.tests.path(`${slugOf(tools.alert.function)}-regression`);
  recorder.create(path, tools.tests.file(tools.testHeader, [regression]));
  recorder.terminal(tools.tests.run(path), tools.tests.passed(path, [regression]), 6);
}

function testWork(recorder: Recorder, conversation: PlannedConversation, tools: Toolchain) {
  const path = tools.tests.path(slugOf(conversation.title));
  recorder.message('agent', `I'll cover ${tools.file} with a few cases in ${path}.`, 10);
  recorder.create(path, tools.tests.file(tools.testHeader, tools.cases));
  recorder.terminal(tools.tests.run(path), tools.tests.passed(path, tools.cases), 8);
}

function changeWork(recorder: Recorder, _conversation: PlannedConversation, tools: Toolchain) {
  recorder.edit(tools.file, tools.before, tools.changed);
}

/** Does the work of `kind` (its reads, edits and test runs); the checks and the commit come after. */
export const WORK: Record<TaskKind, (recorder: Recorder, conversation: PlannedConversation, tools: Toolchain) => void> = {
  'release-notes': releaseNotesWork,
  'dependency-update': dependencyWork,
  triage: triageWork,
  fix: fixWork,
  test: testWork,
  change: changeWork,
};

/** A short commit hash of `title`, stable for the same title. */
function hash(title: string): string {
  let value = 0x811c9dc5;
  for (const char of title) value = Math.imul(value ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return value.toString(16).padStart(8, '0').slice(0, 7);
}
