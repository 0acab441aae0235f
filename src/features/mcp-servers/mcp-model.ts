import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { KEEP_SECRET, type SecretDraft, secretUpdate } from '../../components/form/secret-field';
import { safeParse } from 'zod/mini';
import { issueWords, ownCheckMessage, validationWords } from '../../api/validation-words';
import { type McpConfigResponse, type McpKind, type McpTestRequestInput, mcpConfigSchema } from '../../contract/mcp';
import { NUL_PROBLEM } from '../../contract/rules';
import type { ValidationErrorEntry } from '../../contract/validation-detail';
import { joinCommandLine } from '../../components/command-line';
import { type EnvRow, envToRows, rowsToEnv } from './env';

/*
 * The MCP editor's model: servers of all three kinds as one list with stable ids, the form for
 * one server, and the edits that turn a fresh `mcp_config` into the one to save.
 */

export const KIND_KEY = { stdio: 'stdio_servers', sse: 'sse_servers', shttp: 'shttp_servers' } as const satisfies Record<
  McpKind,
  keyof McpConfigResponse
>;
/** The transports as MCP's specification names them: the same in every language. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- protocol names, not translated
export const KIND_LABEL: Record<McpKind, string> = { stdio: 'stdio', sse: 'SSE', shttp: 'Streamable HTTP' };

type StdioServer = McpConfigResponse['stdio_servers'][number];
type SseServer = McpConfigResponse['sse_servers'][number];
type ShttpServer = McpConfigResponse['shttp_servers'][number];
export type McpServer =
  { kind: 'stdio'; server: StdioServer } | { kind: 'sse'; server: SseServer } | { kind: 'shttp'; server: ShttpServer };

export const EMPTY_MCP_CONFIG: McpConfigResponse = { sse_servers: [], stdio_servers: [], shttp_servers: [] };

export interface McpServerRow {
  /** Stable across edits elsewhere in the list: kind plus name (stdio) or URL. */
  id: string;
  kind: McpKind;
  /** Name of a stdio server, URL of the others. */
  label: string;
  /** The command line of a stdio server (quoted as a shell reads it); '' for the others. */
  details: string;
  /** A streamable HTTP server's own timeout in seconds, when it has one. */
  timeout: number | undefined;
  /** Whether an API key is stored; `undefined` for stdio servers, which have none. */
  keySet: boolean | undefined;
  value: McpServer;
}

const identity = (item: McpServer) => (item.kind === 'stdio' ? item.server.name : item.server.url);

function listServers(config: McpConfigResponse): McpServer[] {
  return [
    ...config.stdio_servers.map((server): McpServer => ({ kind: 'stdio', server })),
    ...config.sse_servers.map((server): McpServer => ({ kind: 'sse', server })),
    ...config.shttp_servers.map((server): McpServer => ({ kind: 'shttp', server })),
  ];
}

/** Every server as a row, stdio first; ids repeat-proof for data from servers without duplicate checks. */
export function serverRows(config: McpConfigResponse | null): McpServerRow[] {
  const seen = new Map<string, number>();
  return listServers(config ?? EMPTY_MCP_CONFIG).map((item) => {
    const base = `${item.kind}:${identity(item)}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    // The URL is the label of a remote server: not said twice.
    const details = item.kind === 'stdio' ? joinCommandLine([item.server.command, ...item.server.args]) : '';
    return {
      id: count === 1 ? base : `${base}#${count}`,
      kind: item.kind,
      label: identity(item),
      details,
      timeout: (item.kind === 'shttp' && item.server.timeout) || undefined,
      keySet: item.kind === 'stdio' ? undefined : (item.server.api_key_set ?? Boolean(item.server.api_key)),
      value: item,
    };
  });
}

// --- the form for one server ---

export interface McpServerFormValues {
  kind: McpKind;
  name: string;
  command: string;
  args: { value: string }[];
  env: EnvRow[];
  url: string;
  api_key: SecretDraft;
  timeout: string;
}

export function formValuesFor(row: McpServerRow | null, kind: McpKind = 'stdio'): McpServerFormValues {
  const values: McpServerFormValues = { kind, name: '', command: '', args: [], env: [], url: '', api_key: KEEP_SECRET, timeout: '' };
  if (!row) return values;
  const { value } = row;
  if (value.kind === 'stdio') {
    const { name, command, args, env } = value.server;
    return { ...values, kind: 'stdio', name, command, args: args.map((arg) => ({ value: arg })), env: envToRows(env) };
  }
  const timeout = value.kind === 'shttp' && value.server.timeout != null ? String(value.server.timeout) : '';
  return { ...values, kind: value.kind, url: value.server.url, timeout };
}

/** A stored key belongs to its server's kind and URL: it still applies while both are unchanged. */
export function storedKeyApplies(values: McpServerFormValues, original: McpServerRow | null): original is McpServerRow {
  return original !== null && original.kind !== 'stdio' && original.kind === values.kind && original.label === values.url.trim();
}

/** Whether saving these values drops the stored API key: the URL or kind changed and no new key was given. */
export function dropsStoredKey(values: McpServerFormValues, original: McpServerRow | null): boolean {
  if (!original?.keySet || values.kind === 'stdio') return false;
  if (values.api_key.value !== '' || values.api_key.clear) return false;
  return !storedKeyApplies(values, original);
}

/**
 * The entry as the API takes it. A key left as stored is `null` (our server keeps what it stored for the
 * same kind and URL); a server that sent the key itself (OpenHands does) gets it back as it was.
 */
export function entryFor(values: McpServerFormValues, original: McpServerRow | null): McpTestRequestInput {
  if (values.kind === 'stdio') {
    return {
      kind: 'stdio',
      name: values.name,
      command: values.command,
      args: values.args.map((arg) => arg.value),
      env: rowsToEnv(values.env),
    };
  }
  const keptKey = storedKeyApplies(values, original) && original.value.kind !== 'stdio' ? (original.value.server.api_key ?? null) : null;
  const draft = secretUpdate(values.api_key);
  const api_key = draft === null ? keptKey : draft;
  if (values.kind === 'sse') return { kind: 'sse', url: values.url, api_key };
  // An empty timeout is left out, so the server's default (60 s) applies.
  return { kind: 'shttp', url: values.url, api_key, ...(values.timeout.trim() === '' ? {} : { timeout: Number(values.timeout) }) };
}

// --- edits of a fresh mcp_config ---

export interface Position {
  kind: McpKind;
  index: number;
}

type EntryInput = Omit<McpTestRequestInput, 'kind'>;

function withoutKind({ kind: _kind, ...entry }: McpTestRequestInput): EntryInput {
  return entry;
}

/**
 * `config` with the server `originalId` replaced by `next` (or `next` added when there is no
 * original, or the original was removed meanwhile). Returns where `next` ends up, to place the
 * server's validation errors.
 */
export function withServer(
  config: McpConfigResponse,
  originalId: string | null,
  next: McpTestRequestInput,
): { config: McpConfigResponse; position: Position } {
  const original = originalId === null ? undefined : serverRows(config).find((row) => row.id === originalId);
  const result: Record<string, unknown[]> = {
    sse_servers: [...config.sse_servers],
    stdio_servers: [...config.stdio_servers],
    shttp_servers: [...config.shttp_servers],
  };
  const target = result[KIND_KEY[next.kind]]!;
  if (original && original.kind === next.kind) {
    const index = target.indexOf(original.value.server);
    target[index] = withoutKind(next);
    return { config: result as McpConfigResponse, position: { kind: next.kind, index } };
  }
  if (original) {
    const source = result[KIND_KEY[original.kind]]!;
    source.splice(source.indexOf(original.value.server), 1);
  }
  target.push(withoutKind(next));
  return { config: result as McpConfigResponse, position: { kind: next.kind, index: target.length - 1 } };
}

export function withoutServer(config: McpConfigResponse, id: string): McpConfigResponse {
  const row = serverRows(config).find((r) => r.id === id);
  if (!row) return config;
  const key = KIND_KEY[row.kind];
  return { ...config, [key]: (config[key] as unknown[]).filter((server) => server !== row.value.server) } as McpConfigResponse;
}

/** `config` with every entry added at the end of its kind; returns each one's position. */
export function withServers(
  config: McpConfigResponse,
  entries: McpTestRequestInput[],
): { config: McpConfigResponse; positions: Position[] } {
  let current = config;
  const positions = entries.map((entry) => {
    const added = withServer(current, null, entry);
    current = added.config;
    return added.position;
  });
  return { config: current, positions };
}

// --- placing a 422 ---

export interface ServerError {
  /** Where in the server entry: `name`, `args.2`, `env`, `env.KEY`, … or '' for the entry itself. */
  path: string;
  message: string;
}

/** Splits a 422 `detail` into errors of the server at `position` (by field) and all others. */
export function errorsAt(
  detail: readonly ValidationErrorEntry[],
  position: Position,
): { own: ServerError[]; others: ValidationErrorEntry[] } {
  const own: ServerError[] = [];
  const others: ValidationErrorEntry[] = [];
  for (const entry of detail) {
    const loc = entry.loc[0] === 'body' ? entry.loc.slice(1) : entry.loc;
    const [config, kindKey, index, ...rest] = loc;
    if (config === 'mcp_config' && kindKey === KIND_KEY[position.kind] && index === position.index) {
      own.push({ path: rest.join('.'), message: validationWords(entry) });
    } else {
      others.push(entry);
    }
  }
  return { own, others };
}

/**
 * What the contract says about adding `entry` to `config`: the problems of that entry only (it
 * goes last, so a duplicate is always reported at it, not at the server it repeats).
 */
export function problemsAdding(config: McpConfigResponse, entry: McpTestRequestInput): ServerError[] {
  const { config: next, position } = withServer(config, null, entry);
  const result = safeParse(mcpConfigSchema, next, { error: issueWords });
  if (result.success) return [];
  const detail = result.error.issues.map((issue) => ({
    type: issue.code,
    loc: ['mcp_config', ...issue.path.filter((part) => typeof part !== 'symbol')],
    msg: ownCheckMessage(issue),
  }));
  return errorsAt(detail, position).own;
}

/** A loc a person can read, in `i18n`'s language: "stdio server 2 › name" rather than `["body","mcp_config",…]`. */
export function describeLoc(loc: ValidationErrorEntry['loc'], config: McpConfigResponse | null, i18n: I18n): string {
  const parts = loc[0] === 'body' ? loc.slice(1) : loc;
  const [configKey, kindKey, index, ...rest] = parts;
  if (configKey !== 'mcp_config') return parts.join('.');
  const kind = (Object.keys(KIND_KEY) as McpKind[]).find((k) => KIND_KEY[k] === kindKey);
  if (!kind || typeof index !== 'number') return parts.join('.');
  const item = listServers(config ?? EMPTY_MCP_CONFIG).filter((s) => s.kind === kind)[index];
  const type = KIND_LABEL[kind];
  const name = item && identity(item);
  const position = index + 1;
  const server = name ? i18n._(msg`${type} server “${name}”`) : i18n._(msg`${type} server ${position}`);
  return [server, ...rest].join(' › ');
}

/**
 * The form field for a server error's `path` (the form is locked while saving, so indices are
 * still those that were sent). Env errors find their row by key, from the loc or the message.
 * Anything else without an input of its own lands on the list (`args.root`, `env.root`) or the form.
 */
export function formFieldFor(path: string, message: string, envKeys: readonly string[], i18n: I18n): string {
  const [field, item] = path.split('.', 2);
  if (field === 'args') return item === undefined ? 'args.root' : `args.${item}.value`;
  if (field === 'env') {
    const key = item ?? /'([^']+)'/.exec(message)?.[1];
    const row = key === undefined ? -1 : envKeys.indexOf(key);
    return row === -1 ? 'env.root' : `env.${row}.${message.endsWith(i18n._(NUL_PROBLEM)) ? 'value' : 'key'}`;
  }
  return field || 'root.server';
}
