import { randomUUID } from 'node:crypto';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { DEMO_MODEL } from '../../src/contract/events';
import { type Model, ModelAborted, type ModelReply, type ToolCall } from './model';

/** A pause that ends early (with `ModelAborted`) when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ModelAborted('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelAborted('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const NOTES = `# Demo notes

This file was written by the demo model (${DEMO_MODEL}) of Agent Console.
It plays a short scripted session so you can see how an agent works in its sandbox:
a message, a terminal command, a file edit and a finish.

Choose a real LLM in Settings › LLM to have an agent work on your tasks.
`;

const call = (name: string, args: object): ToolCall => ({
  id: `demo_call_${randomUUID().replaceAll('-', '')}`,
  name,
  arguments: JSON.stringify(args),
});

const textOf = (message: ChatCompletionMessageParam | undefined): string => {
  const content = message?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => ('text' in part ? part.text : '')).join('');
};

/** How the demo rates a command, as a model asked for `security_risk` would: deleting is HIGH. */
export const riskOf = (command: string) => (/(^|[\s;&|])(rm|rmdir|unlink|shred)\s/.test(command) ? 'HIGH' : 'LOW');

const terminal = (command: string) => call('terminal', { command, security_risk: riskOf(command) });

/** A later message that asks to delete something: the demo deletes its note, a HIGH-risk command. */
const ASKS_TO_DELETE = /\b(delete|remove|clean|rm)\b/i;

/** What an entry of a workspace usually is, by its name: the tour the demo gives. */
const PURPOSES: [RegExp, string][] = [
  [/^(src|app|lib|pkg|cmd|internal)$/, 'the code'],
  [/^(tests?|__tests__|e2e|spec)$/, 'the tests'],
  [/^(public|static|assets)$/, 'files served as they are'],
  [/^docs?$/, 'the documentation'],
  [/^README(\.md)?$/i, 'where to start reading'],
  [/^package\.json$/, 'the dependencies and the npm scripts'],
  [/^(pyproject\.toml|requirements\.txt)$/, 'the Python dependencies'],
  [/^go\.mod$/, 'the Go module and its dependencies'],
  [/^(Dockerfile|compose\.ya?ml|docker-compose\.ya?ml)$/, 'the container setup'],
  [/^\.github$/, 'the CI workflows'],
  [/^(vite|next|webpack|vitest|jest|playwright)\.config\.\w+$/, 'a tool’s configuration'],
  [/^tsconfig\.json$/, 'the TypeScript settings'],
];

/** How to run what the workspace holds, by the file that says so. */
const HOW_TO_RUN: [string, string][] = [
  ['package.json', '`npm install`, then `npm run dev` (its scripts name the rest, tests included)'],
  ['pyproject.toml', '`uv sync`, then `uv run pytest`'],
  ['go.mod', '`go run ./...`, and `go test ./...` for the tests'],
  ['Makefile', '`make` (its targets name the rest)'],
];

/** A tour of the workspace from its `ls -la`: what is where, and how to run it. */
export function tourOf(listing: string): string {
  const names = listing
    .split('\n')
    .filter((line) => /^[-dl][rwx-]{9}/.test(line.trim()))
    .map((line) =>
      line
        .trim()
        .split(/\s+/)
        .slice(8)
        .join(' ')
        .replace(/ -> .*$/, ''),
    )
    .filter((name) => name && name !== '.' && name !== '..');
  const known = names.flatMap((name) => {
    const purpose = PURPOSES.find(([pattern]) => pattern.test(name))?.[1];
    return purpose ? [`- \`${name}\`: ${purpose}`] : [];
  });
  const run = HOW_TO_RUN.find(([file]) => names.includes(file))?.[1];
  if (known.length === 0 && !run) return 'The workspace is empty so far: nothing to tour yet.';
  return [...(known.length > 0 ? ['What is where:', ...known] : []), ...(run ? [`To run it: ${run}.`] : [])].join('\n');
}

/** The output of the first command of the session (its `ls -la`). */
const firstOutput = (messages: ChatCompletionMessageParam[]) => textOf(messages.find((message) => message.role === 'tool'));

/** The next scripted reply, from where the conversation is. */
function nextReply(messages: ChatCompletionMessageParam[]): { text: string; toolCalls: ToolCall[] } {
  const userIndexes = messages.flatMap((message, i) => (message.role === 'user' ? [i] : []));
  const lastUser = userIndexes.at(-1) ?? -1;
  const repliesSince = messages.slice(lastUser + 1).filter((message) => message.role === 'assistant').length;
  if (userIndexes.length <= 1) {
    switch (repliesSince) {
      case 0:
        return {
          text: `Hello! I am the demo model (${DEMO_MODEL}): no LLM is involved, I play a short scripted session so you can watch an agent at work. First, a look at the workspace.`,
          toolCalls: [terminal('ls -la')],
        };
      case 1:
        return {
          text: 'Now I leave a small note in the workspace.',
          toolCalls: [call('file_editor', { command: 'create', path: 'demo-notes.md', file_text: NOTES, security_risk: 'MEDIUM' })],
        };
      case 2:
        return {
          text: '',
          toolCalls: [
            call('finish', {
              message: `Demo done: I listed the workspace and wrote demo-notes.md.\n\n${tourOf(firstOutput(messages))}\n\nThis was the demo model (${DEMO_MODEL}); choose an LLM in Settings › LLM for real work.`,
            }),
          ],
        };
      default:
        return { text: `The demo script (${DEMO_MODEL}) is over.`, toolCalls: [] };
    }
  }
  const asked = textOf(messages[lastUser]).trim().slice(0, 200);
  if (ASKS_TO_DELETE.test(asked) && repliesSince === 0) {
    return { text: 'Deleting the note I wrote. That is a risky command: I rate it HIGH.', toolCalls: [terminal('rm demo-notes.md')] };
  }
  if (ASKS_TO_DELETE.test(asked) && repliesSince === 1) {
    const rejected = messages.at(-1)?.role === 'tool' && textOf(messages.at(-1)).includes('rejected');
    return { text: '', toolCalls: [call('finish', { message: rejected ? 'I left the note, as you said.' : 'The note is gone.' })] };
  }
  if (repliesSince > 0) return { text: `The demo script (${DEMO_MODEL}) has nothing more to say here.`, toolCalls: [] };
  return {
    text: `This is the demo model (${DEMO_MODEL}), so my replies are scripted. You wrote: “${asked}”. To have an agent work on that, choose an LLM in Settings › LLM.`,
    toolCalls: [call('finish', { message: 'Scripted demo reply given.' })],
  };
}

/**
 * The built-in demo model: a scripted session with no LLM, no key and no network. Its tool calls
 * really run (confirmation, pause and max_iterations apply as with any model); short pauses let
 * people watch it live. It costs nothing.
 */
export function demoModel(): Model {
  return {
    async complete({ messages, tools }, onText, signal): Promise<ModelReply> {
      // Asked for a summary (no tools offered): a scripted one.
      const reply =
        tools.length === 0
          ? { text: `USER_CONTEXT: a demo session (${DEMO_MODEL}); the earlier events are summarised here.`, toolCalls: [] }
          : nextReply(messages);
      const responseId = `demo-${randomUUID()}`;
      await pause(300 + Math.floor(Math.random() * 200), signal);
      const words = reply.text.split(/(?<= )/);
      for (let i = 0; i < words.length; i += 4) {
        onText(words.slice(i, i + 4).join(''), responseId);
        await pause(40, signal);
      }
      return {
        responseId,
        ...reply,
        usage: { prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 },
      };
    },
  };
}
