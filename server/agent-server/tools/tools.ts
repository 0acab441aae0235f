import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import * as z from 'zod/mini';
import { fileEditorActionSchema, finishActionSchema, terminalActionSchema } from '../../../src/contract/events';
import { SECURITY_RISKS, type SecurityRisk } from '../contract';
import { FileEditor, type FileEditorAction } from './file-editor';
import type { McpTool } from './mcp';
import { type Observation, text, type ToolContext } from './observation';
import { DEFAULT_TIMEOUT_SECONDS, MAX_OUTPUT_CHARS, runTerminal, type TerminalAction } from './terminal';

export interface FinishAction {
  kind: 'FinishAction';
  message: string;
}
/** A call of an MCP server's tool: its arguments as the model gave them (the server checks them). */
export interface McpToolAction {
  kind: 'MCPToolAction';
  data: Record<string, unknown>;
}
export type Action = TerminalAction | FileEditorAction | FinishAction | McpToolAction;

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

type Parsed = { action: Action; risk: SecurityRisk } | { error: string };

/** What every tool that acts takes, as in the SDK: the model's rating of the action. */
const RISK_PARAMETER = {
  type: 'string',
  enum: [...SECURITY_RISKS],
  description: "The LLM's assessment of the safety risk of this action.",
};

/** `definition` with the required `security_risk` parameter; a tool that only reads (finish, a read-only MCP tool) takes none. */
function withRiskParameter(definition: ChatCompletionFunctionTool, readOnly: boolean): ChatCompletionFunctionTool {
  if (readOnly) return definition;
  const parameters = (definition.function.parameters ?? { type: 'object', properties: {} }) as { properties?: object; required?: string[] };
  return {
    ...definition,
    function: {
      ...definition.function,
      parameters: {
        ...parameters,
        properties: { ...parameters.properties, security_risk: RISK_PARAMETER },
        required: [...(parameters.required ?? []), 'security_risk'],
      },
    },
  };
}

/**
 * The rating a call carries, taken out of its arguments: required when the model rates its
 * actions (the LLM analyzer), UNKNOWN when it gave none otherwise; one that is no rating is an error.
 */
function takeRisk(name: string, args: Record<string, unknown>, required: boolean): { risk: SecurityRisk } | { error: string } {
  const { security_risk: raw } = args;
  delete args.security_risk;
  if (raw === undefined || raw === null) {
    return required ? { error: `Failed to provide security_risk field in tool '${name}'` } : { risk: 'UNKNOWN' };
  }
  return (SECURITY_RISKS as readonly unknown[]).includes(raw)
    ? { risk: raw as SecurityRisk }
    : { error: `Invalid security_risk for tool '${name}': ${JSON.stringify(raw)} (one of ${SECURITY_RISKS.join(', ')})` };
}

/** The arguments of a tool call as an object, or why they are not one. */
function parseArguments(name: string, args: string): { value: Record<string, unknown> } | { error: string } {
  try {
    const value: unknown = args.trim() === '' ? {} : JSON.parse(args);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { value: value as Record<string, unknown> };
  } catch {
    // said below
  }
  return { error: `The arguments of ${name} are not a valid JSON object.` };
}

/** The action a call of a built-in tool asks for, or why it cannot be run. */
function parseBuiltInCall(name: keyof typeof ACTION_SCHEMAS, parsed: Record<string, unknown>): { action: Action } | { error: string } {
  const schema = ACTION_SCHEMAS[name];
  const kind = { terminal: 'TerminalAction', file_editor: 'FileEditorAction', finish: 'FinishAction' }[name];
  const result = schema.safeParse({ ...parsed, kind });
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

const isBuiltIn = (name: string): name is keyof typeof ACTION_SCHEMAS => Object.hasOwn(ACTION_SCHEMAS, name);

/** The built-in tools and the MCP servers' tools of one conversation; runs actions in its workspace. */
export class Tools {
  readonly #editor = new FileEditor();
  readonly #mcp = new Map<string, McpTool>();
  /** Web search through the app server (tools/web-search.ts), an MCP tool of its own making; it keeps its name. */
  #webSearch: McpTool | null = null;

  constructor(private readonly context: () => ToolContext) {}

  /** The MCP servers' tools join the built-in ones (which keep their names). */
  addMcpTools(tools: McpTool[]): void {
    for (const tool of tools) if (!isBuiltIn(tool.name)) this.#mcp.set(tool.name, tool);
  }

  /** Offers web search, or (`null`) no longer: a re-sent start request says which. */
  setWebSearch(tool: McpTool | null): void {
    this.#webSearch = tool;
  }

  /** The MCP tool called `name`: web search's before a server's of the same name. */
  #mcpTool(name: string): McpTool | undefined {
    return this.#webSearch?.name === name ? this.#webSearch : this.#mcp.get(name);
  }

  /** Every MCP tool offered, web search first; none twice by name. */
  get #mcpTools(): McpTool[] {
    const search = this.#webSearch;
    return search ? [search, ...[...this.#mcp.values()].filter((tool) => tool.name !== search.name)] : [...this.#mcp.values()];
  }

  /** What the model is offered (as the SDK does, every tool that acts takes a `security_risk`). */
  get definitions(): ChatCompletionFunctionTool[] {
    return this.listed.map(({ mcp_server: _server, ...definition }) => definition);
  }

  /** What the `SystemPromptEvent` lists: the definitions, each MCP tool with its server's name. */
  get listed(): (ChatCompletionFunctionTool & { mcp_server?: string })[] {
    return [
      ...TOOL_DEFINITIONS.map((definition) => withRiskParameter(definition, definition.function.name === 'finish')),
      ...this.#mcpTools.map((tool) => ({ ...withRiskParameter(tool.definition, tool.readOnly), mcp_server: tool.server })),
    ];
  }

  /** The action a tool call asks for with the model's rating of it (`riskRequired`: it must give one), or why it cannot be run. */
  parse(name: string, args: string, riskRequired: boolean): Parsed {
    const mcp = this.#mcpTool(name);
    if (!isBuiltIn(name) && !mcp) {
      return { error: `There is no tool named ${name}; the tools are ${this.definitions.map((tool) => tool.function.name).join(', ')}.` };
    }
    const parsed = parseArguments(name, args);
    if ('error' in parsed) return parsed;
    const readOnly = name === 'finish' || mcp?.readOnly === true;
    // Taken out of every call's arguments, as the SDK does; a tool that only reads is not rated.
    const taken = takeRisk(name, parsed.value, riskRequired && !readOnly);
    const rated = readOnly ? ({ risk: 'UNKNOWN' } as const) : taken;
    if ('error' in rated) return rated;
    const action = isBuiltIn(name)
      ? parseBuiltInCall(name, parsed.value)
      : { action: { kind: 'MCPToolAction' as const, data: parsed.value } };
    return 'error' in action ? action : { ...action, risk: rated.risk };
  }

  /**
   * Runs `action`, a call of `toolName`; `signal` interrupts a running command or MCP call (Stop);
   * `onOutput` gets a command's output as it comes.
   */
  async run(action: Action, toolName: string, signal?: AbortSignal, onOutput?: (chunk: string) => void): Promise<Observation> {
    switch (action.kind) {
      case 'TerminalAction':
        return runTerminal(action, this.context(), signal, onOutput);
      case 'FileEditorAction':
        return this.#editor.run(action, this.context());
      case 'FinishAction':
        return { kind: 'FinishObservation', content: text(action.message), is_error: false };
      case 'MCPToolAction': {
        const tool = this.#mcpTool(toolName);
        if (!tool)
          return {
            kind: 'MCPToolObservation',
            content: text(`The MCP tool ${toolName} is no longer available.`),
            is_error: true,
            tool_name: toolName,
          };
        const observation = await tool.call(action.data, signal);
        return { ...observation, content: observation.content.map((block) => ({ ...block, text: this.context().mask(block.text) })) };
      }
    }
  }
}
