import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import * as z from 'zod/mini';
import { fileEditorActionSchema, finishActionSchema, terminalActionSchema } from '../../../src/contract/events';
import { FileEditor, type FileEditorAction } from './file-editor';
import { type Observation, text, type ToolContext } from './observation';
import { DEFAULT_TIMEOUT_SECONDS, MAX_OUTPUT_CHARS, runTerminal, type TerminalAction } from './terminal';

export interface FinishAction {
  kind: 'FinishAction';
  message: string;
}
export type Action = TerminalAction | FileEditorAction | FinishAction;

/** The tools the LLM may call, with the agent SDK's names. */
export const TOOL_DEFINITIONS: ChatCompletionFunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'terminal',
      description: `Run a bash command in the workspace (a fresh shell each time, in the workspace directory). Output over ${MAX_OUTPUT_CHARS} characters is cut in the middle. Default timeout ${DEFAULT_TIMEOUT_SECONDS} s.`,
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The bash command to run.' },
          timeout: { type: 'number', description: `Seconds before the command is stopped (default ${DEFAULT_TIMEOUT_SECONDS}).` },
        },
        required: ['command'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'file_editor',
      description:
        'View a file or directory, create a file, replace a unique string in a file, insert text after a line, or undo the last edit. Paths are relative to the workspace or absolute inside it.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] },
          path: { type: 'string' },
          file_text: { type: 'string', description: 'create: the content of the new file.' },
          old_str: { type: 'string', description: 'str_replace: the exact text to replace; it must appear exactly once.' },
          new_str: { type: 'string', description: 'str_replace: the replacement; insert: the text to insert.' },
          insert_line: { type: 'integer', description: 'insert: the line after which to insert (0: at the top).' },
          view_range: { type: 'array', items: { type: 'integer' }, description: 'view: [first, last] lines; last -1 for the end.' },
        },
        required: ['command', 'path'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'finish',
      description: 'Say that the task is done, with a message to the user.',
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  },
];

const ACTION_SCHEMAS = {
  terminal: terminalActionSchema,
  file_editor: fileEditorActionSchema,
  finish: finishActionSchema,
} as const;

/** The action an LLM's tool call asks for, or why it cannot be run. */
export function parseToolCall(name: string, args: string): { action: Action } | { error: string } {
  const schema = ACTION_SCHEMAS[name as keyof typeof ACTION_SCHEMAS];
  if (!schema) return { error: `There is no tool named ${name}; the tools are ${Object.keys(ACTION_SCHEMAS).join(', ')}.` };
  let parsed: unknown;
  try {
    parsed = args.trim() === '' ? {} : JSON.parse(args);
  } catch {
    return { error: `The arguments of ${name} are not valid JSON.` };
  }
  const kind = { terminal: 'TerminalAction', file_editor: 'FileEditorAction', finish: 'FinishAction' }[name as keyof typeof ACTION_SCHEMAS];
  const result = schema.safeParse({ ...(parsed as object), kind });
  if (!result.success) return { error: `Invalid arguments for ${name}: ${z.prettifyError(result.error)}` };
  const data = result.data;
  switch (data.kind) {
    case 'TerminalAction':
      return { action: { kind: data.kind, command: data.command, is_input: data.is_input, timeout: data.timeout, reset: data.reset } };
    case 'FileEditorAction':
      return {
        action: {
          kind: data.kind,
          command: data.command,
          path: data.path,
          file_text: data.file_text,
          old_str: data.old_str,
          new_str: data.new_str,
          insert_line: data.insert_line,
          view_range: data.view_range,
        },
      };
    default:
      return { action: { kind: 'FinishAction', message: data.message } };
  }
}

/** Runs actions in one conversation's workspace. */
export class Tools {
  readonly #editor = new FileEditor();

  constructor(private readonly context: () => ToolContext) {}

  /** Runs `action`; `signal` interrupts a running command (Stop). */
  async run(action: Action, signal?: AbortSignal): Promise<Observation> {
    switch (action.kind) {
      case 'TerminalAction':
        return runTerminal(action, this.context(), signal);
      case 'FileEditorAction':
        return this.#editor.run(action, this.context());
      case 'FinishAction':
        return { kind: 'FinishObservation', content: text(action.message), is_error: false };
    }
  }
}
