import { describe, expect, it } from 'vitest';
import { type PlannedConversation, planConversations } from './conversation-plan';
import { transcript } from './transcripts';

interface Frame {
  kind: string;
  action?: { kind: string; command?: string };
  observation?: { kind: string; command?: string; path?: string; old_content?: string | null; new_content?: string; exit_code?: number };
}

const conversation = (title: string, repository: string, story: PlannedConversation['story'] = 'work'): PlannedConversation => ({
  title,
  repository: { name: repository, provider: 'github' },
  branch: 'agent/work',
  llmModel: 'anthropic/claude-sonnet-4-5-20250929',
  trigger: 'gui',
  prNumber: [],
  createdAt: new Date('2025-03-03T10:00:00Z'),
  archived: false,
  story,
});

const observations = (planned: PlannedConversation) =>
  (transcript(planned) as Frame[]).flatMap((frame) => (frame.kind === 'ObservationEvent' && frame.observation ? [frame.observation] : []));
const edits = (planned: PlannedConversation) => observations(planned).filter((observation) => typeof observation.new_content === 'string');

describe('the transcript of a demo conversation', () => {
  it('writes release notes as a new notes file, from the git log, touching no source', () => {
    const planned = conversation('Write release notes for v2.40.0', 'acme/storefront');
    const seen = observations(planned);
    expect(seen.some((observation) => observation.command?.includes('git log') && observation.command.includes('v2.39.0..'))).toBe(true);
    const changed = edits(planned);
    expect(changed.map((edit) => [edit.path, edit.old_content])).toEqual([['docs/releases/v2.40.0.md', null]]);
    expect(changed[0]!.new_content).toMatch(/## Fixes\n\n- .+/);
    expect(changed[0]!.new_content).toMatch(/## Features\n\n- .+/);
  });

  it.each([
    ['Weekly dependency updates (storefront)', 'acme/storefront', 'package.json', 'package-lock.json'],
    ['Upgrade the pg driver and fix deprecation warnings', 'acme/payments-api', 'go.mod', 'go.sum'],
    ['Pin numpy to fix the failing CI job', 'data/forecasting', 'pyproject.toml', 'uv.lock'],
  ])('updates a dependency (%s) in the manifest and the lock file', (title, repository, manifest, lock) => {
    const changed = edits(conversation(title, repository));
    expect(changed.map((edit) => edit.path)).toEqual([manifest, lock]);
    for (const edit of changed) {
      const versions = (text: string) => text.match(/\d+\.\d+\.\d+/g);
      expect(versions(edit.new_content!)).not.toEqual(versions(edit.old_content!));
    }
  });

  it('fixes with a test that fails before the code edit and passes after it', () => {
    const seen = observations(conversation('Fix rounding error in multi-currency refunds', 'acme/payments-api'));
    const runs = seen.filter((observation) => observation.command?.startsWith('go test ./internal/refunds/'));
    const fix = seen.findIndex((observation) => observation.path === 'internal/refunds/refund.go' && observation.new_content);
    expect(runs.map((run) => run.exit_code)).toEqual([1, 0]);
    expect(seen.indexOf(runs[0]!)).toBeLessThan(fix);
    expect(seen.indexOf(runs[1]!)).toBeGreaterThan(fix);
  });

  it('triages by reading the alerts, then mending the file the top alert names', () => {
    const seen = observations(conversation('Triage the overnight Sentry alerts', 'acme/storefront', 'sentry'));
    const alerts = seen.findIndex((observation) => observation.kind === 'MCPToolObservation');
    const named = /\(([^():]+):\d+\)/.exec(JSON.stringify(seen[alerts]))![1]!;
    const fix = seen.findIndex((observation) => observation.path === named && observation.new_content);
    expect(alerts).toBeGreaterThanOrEqual(0);
    expect(fix).toBeGreaterThan(alerts);
    expect(seen.slice(fix).some((observation) => observation.command === 'create' && /test/.test(observation.path!))).toBe(true);
  });

  it('adds a test file of several cases and runs it', () => {
    const seen = observations(conversation('Add unit tests for the tax calculator', 'acme/payments-api'));
    const created = seen.filter((observation) => observation.command === 'create');
    expect(created).toHaveLength(1);
    expect(created[0]!.path).toMatch(/_test\.go$/);
    expect(created[0]!.new_content!.match(/^func Test/gm)!.length).toBeGreaterThan(1);
    expect(seen.some((observation) => observation.command?.startsWith('go test') && observation.exit_code === 0)).toBe(true);
  });

  it('changes code for any other task, never with a comment inside JSX', () => {
    const [edit] = edits(conversation('Lazy-load product images below the fold', 'acme/storefront'));
    const added = edit!.new_content!.split('\n').filter((line) => !edit!.old_content!.split('\n').includes(line));
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((line) => !/^\s*(\/\/|#)/.test(line))).toBe(true);
  });

  it('never adds a comment repeating the task in any of the demo conversations', () => {
    for (const planned of planConversations(new Date('2025-06-02T12:00:00Z'))) {
      for (const edit of edits(planned)) {
        const repeats = edit.new_content!.split('\n').some((line) => /^\s*(\/\/|#)\s*(.*)$/.exec(line)?.[2] === planned.title);
        expect(repeats, `${planned.title}: ${edit.path}`).toBe(false);
      }
      if (edits(planned).length > 0) expect(edits(planned).every((edit) => edit.new_content !== edit.old_content)).toBe(true);
    }
  });

  it('keeps every story: a summary, a new sandbox, a question and an LLM failure', () => {
    const kinds = (story: PlannedConversation['story']) =>
      (transcript(conversation('Add pagination to GET /payouts', 'acme/payments-api', story)) as Frame[]).map((frame) => frame.kind);
    expect(kinds('long')).toContain('Condensation');
    expect(kinds('continued')).toContain('ContinuedInNewSandboxEvent');
    expect(kinds('llm-error')).toContain('ConversationErrorEvent');
    expect(kinds('question').filter((kind) => kind === 'MessageEvent')).toHaveLength(3);
  });
});
