import { i18n, type MessageDescriptor } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import {
  agentError,
  agentMessage,
  condensation,
  conversationError,
  fileEditAction,
  fileObservation,
  finishAction,
  mcpAction,
  mcpObservation,
  pause,
  rejection,
  systemPrompt,
  terminalAction,
  terminalObservation,
  userMessage,
} from '../../../testing/events';
import { buildTimeline, receive, summarizeAction, waitingActions } from './timeline';

/** The English source text, as the console shows it without a catalog. */
const english = (message: MessageDescriptor) => i18n._(message);

const build = (events: Parameters<typeof receive>[0][], status: Parameters<typeof buildTimeline>[1] = 'idle') =>
  buildTimeline(events.map(receive), status);

describe('buildTimeline', () => {
  it('draws each kind, with each action joined to what came of it', () => {
    const items = build([
      systemPrompt('s'),
      userMessage('u', 'List the files'),
      agentMessage('m', 'This is the demo model.'),
      terminalAction('a1', 'ls -la'),
      terminalObservation('o1', 'a1', 'total 0', 0),
      terminalAction('a2', 'false'),
      terminalObservation('o2', 'a2', '', 1),
      terminalAction('a2s', 'sleep 600'),
      terminalObservation('o2s', 'a2s', '[The command was interrupted: the user pressed Stop.]', 130),
      fileEditAction('a3', 'create', '/workspace/notes.md'),
      fileObservation('o3', 'a3', 'File created'),
      terminalAction('a4', 'rm -rf /'),
      rejection('x4', 'a4', 'Too risky'),
      terminalAction('a5', 'cat missing'),
      agentError('e5', 'call-a5', 'The tool crashed'),
      agentError('e6', 'call-other', 'Bad arguments'),
      conversationError('c', 'LLM_AUTH', 'The LLM rejected the key (Settings › LLM)'),
      pause('p1'),
      pause('p2', 'sandbox_paused'),
      finishAction('f', 'All done'),
      condensation('k', ['u', 'm'], 'S'),
      { kind: 'CondensationRequest', id: 'q', timestamp: '2026-11-26T10:00:01', source: 'environment' },
      { kind: 'ConversationStateUpdateEvent', id: 'z', timestamp: '2026-11-26T10:00:02', source: 'environment', key: 'x', value: 1 },
      { kind: 'BrowserObservation', id: 'b', timestamp: '2026-11-26T10:00:03', source: 'environment' },
    ]);
    expect(items.map((item) => [item.type, item.type === 'action' ? item.status : null])).toEqual([
      ['system-prompt', null],
      ['message', null],
      ['message', null],
      ['action', 'done'],
      ['action', 'failed'],
      ['action', 'interrupted'],
      ['action', 'done'],
      ['action', 'rejected'],
      ['action', 'error'],
      ['error', null],
      ['error', null],
      ['paused', null],
      ['paused', null],
      ['finish', null],
      ['condensation', null],
      ['other', null],
    ]);
    expect(items.at(-2)).toMatchObject({ summary: 'S', forgotten: 2 });
    expect(items[1]).toMatchObject({ role: 'user', text: 'List the files' });
    expect(items[2]).toMatchObject({ role: 'agent', text: 'This is the demo model.' });
    expect(items[4]).toMatchObject({ outcome: { kind: 'observation', exitCode: 1, isError: true } });
    expect(items[7]).toMatchObject({ outcome: { kind: 'rejected', reason: 'Too risky' } });
    expect(items[9]).toMatchObject({ code: null, detail: 'Bad arguments' });
    expect(items[9]?.type === 'error' && english(items[9].title as MessageDescriptor)).toBe('The agent hit an error (terminal)');
    expect(items[10]?.type === 'error' && english(items[10].title as MessageDescriptor)).toBe('The LLM rejected the key');
    expect(items.filter((item) => item.type === 'paused').map((item) => item.type === 'paused' && item.bySandbox)).toEqual([false, true]);
  });

  it('says an action without a result waits for approval, runs, or has not run, after the execution status', () => {
    const events = [terminalAction('a', 'ls')];
    expect(build(events, 'waiting_for_confirmation')[0]).toMatchObject({ status: 'waiting' });
    expect(build(events, 'running')[0]).toMatchObject({ status: 'running' });
    expect(build(events, 'paused')[0]).toMatchObject({ status: 'pending' });
    expect(waitingActions(build(events, 'waiting_for_confirmation')).map((item) => item.action.id)).toEqual(['a']);
    expect(waitingActions(build(events, 'running'))).toEqual([]);
  });
});

describe('rejections', () => {
  it("join their action whichever source they carry: the SDK's environment, or user as ours wrote it before", () => {
    for (const source of ['environment', 'user'] as const) {
      const [action] = build([terminalAction('a', 'rm -rf /'), rejection('x', 'a', 'No', source)]);
      expect(action).toMatchObject({ type: 'action', status: 'rejected', outcome: { kind: 'rejected', reason: 'No' } });
    }
  });
});

describe('MCP tools', () => {
  it('lists the tools the agent had with their servers, and draws a call with its server, tool, arguments and result', () => {
    const items = build([
      systemPrompt('s', { echo: 'tools' }),
      mcpAction('a', 'echo', { text: 'hello' }),
      mcpObservation('o', 'a', 'echo', 'echo: hello'),
      mcpAction('b', 'other_server_tool', {}),
    ]);
    expect(items[0]).toMatchObject({
      type: 'system-prompt',
      tools: [
        { name: 'terminal', server: null },
        { name: 'file_editor', server: null },
        { name: 'finish', server: null },
        { name: 'echo', server: 'tools' },
      ],
    });
    expect(items[1]).toMatchObject({
      type: 'action',
      status: 'done',
      server: 'tools',
      outcome: { output: "[Tool 'echo' executed.]\necho: hello" },
    });
    expect(items[1]?.type === 'action' && summarizeAction(items[1].action, english, items[1].server)).toEqual({
      tool: 'mcp',
      text: 'tools › echo {"text":"hello"}',
    });
    // A tool the system prompt does not place (another server's events): its name and arguments alone.
    expect(items[2]?.type === 'action' && summarizeAction(items[2].action, english, items[2].server)).toEqual({
      tool: 'mcp',
      text: 'other_server_tool {}',
    });
  });
});

describe('summarizeAction', () => {
  it('names the command, the file and what is done to it, or the tool and its arguments', () => {
    const [terminal, file] = build([terminalAction('a', 'ls -la'), fileEditAction('b', 'str_replace', '/w/a.ts')]);
    expect(terminal?.type === 'action' && summarizeAction(terminal.action, english)).toEqual({ tool: 'terminal', text: 'ls -la' });
    expect(file?.type === 'action' && summarizeAction(file.action, english)).toEqual({ tool: 'file', text: 'Edit /w/a.ts' });
    const other = receive({
      ...terminalAction('c', 'x'),
      action: { kind: 'BrowseAction' },
      tool_name: 'browser',
      tool_call: { id: 'c', name: 'browser', arguments: '{"url":"x"}' },
    });
    expect(other.known?.kind === 'ActionEvent' && summarizeAction(other.known, english)).toEqual({
      tool: 'other',
      text: 'browser {"url":"x"}',
    });
  });

  it("says what is done to a file in the reader's language, and a command as it is", () => {
    const [terminal, file] = build([terminalAction('a', 'ls -la'), fileEditAction('b', 'create', '/w/b.ts')]);
    const marked = (message: MessageDescriptor) => `«${english(message)}»`;
    expect(terminal?.type === 'action' && summarizeAction(terminal.action, marked).text).toBe('ls -la');
    expect(file?.type === 'action' && summarizeAction(file.action, marked).text).toBe('«Create /w/b.ts»');
  });
});
